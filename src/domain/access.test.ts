import { describe, expect, it } from 'vitest';
import { MENU } from '../resources/definitions';
import { activeTrail, firstPermittedRoute, isGroup, visibleMenu, type MenuNode } from './access';

const user = (...permissions: string[]) => ({ permissions });

/** The menu as nested ids, to compare whole shapes. */
const ids = (nodes: MenuNode[]): unknown[] => nodes.map((n) => (isGroup(n) ? { [n.id]: ids(n.children) } : n.id));

describe('visibleMenu', () => {
  it('shows a leaf only with its permission and a group only with a visible child', () => {
    expect(ids(visibleMenu(user('location'), MENU))).toEqual(['dashboard', { setting: ['locations'] }]);
  });

  it('shows only the dashboard without permissions or without a user', () => {
    expect(ids(visibleMenu(user(), MENU))).toEqual(['dashboard']);
    expect(ids(visibleMenu(null, MENU))).toEqual(['dashboard']);
  });

  it('gates Panel Groups and Panels on `part`', () => {
    expect(ids(visibleMenu(user('part'), MENU))).toEqual(['dashboard', { setting: ['parts', 'panelgroups', 'panels'] }]);
    expect(ids(visibleMenu(user('panel', 'panelgroup'), MENU))).toEqual(['dashboard']);
  });

  it('gates Application Settings on `user`', () => {
    expect(ids(visibleMenu(user('user'), MENU))).toEqual(['dashboard', { configuration: ['users'] }, { setting: ['app-settings'] }]);
    expect(ids(visibleMenu(user('app_setting'), MENU))).toEqual(['dashboard']);
  });

  it('shows the nested E-mail Template group under Setting', () => {
    expect(ids(visibleMenu(user('email_template', 'scan'), MENU))).toEqual([
      'dashboard',
      'scans',
      'quotes',
      'vehicles',
      { setting: [{ 'email-template': ['email-header-footer', 'email-templates'] }] },
    ]);
  });

  it('shows the whole menu to a user holding every permission', () => {
    const all = user('scan', 'user', 'role', 'permission', 'device', 'location', 'client', 'agent', 'product', 'part', 'email_template');
    expect(visibleMenu(all, MENU)).toEqual(MENU);
  });

  it('does not change the menu it filters', () => {
    const before = JSON.stringify(MENU);
    visibleMenu(user('location'), MENU);
    expect(JSON.stringify(MENU)).toBe(before);
  });
});

describe('activeTrail', () => {
  it.each([
    ['/', ['dashboard']],
    ['/dashboard', ['dashboard']],
    ['/scans', ['scans']],
    ['/vehicles/7', ['vehicles']],
    ['/scans/12/show', ['scans']],
    ['/locations', ['setting', 'locations']],
    ['/locations/5', ['setting', 'locations']],
    ['/users/create', ['configuration', 'users']],
    ['/panels/2', ['setting', 'panels']],
    ['/panelgroups/2', ['setting', 'panelgroups']],
    ['/email-templates/3', ['setting', 'email-template', 'email-templates']],
    ['/email-header-footer', ['setting', 'email-template', 'email-header-footer']],
  ])('%s → %j', (path, trail) => {
    expect(activeTrail(path, MENU)).toEqual(trail);
  });

  it('matches whole segments only, and nothing for unknown paths', () => {
    expect(activeTrail('/locationsX', MENU)).toBeNull();
    expect(activeTrail('/unknown', MENU)).toBeNull();
    expect(activeTrail('/dashboardish', MENU)).toBeNull();
  });
});

describe('firstPermittedRoute', () => {
  it('skips the dashboard and returns the first gated leaf the user may open', () => {
    expect(firstPermittedRoute(user('scan'), MENU)).toBe('/scans');
    expect(firstPermittedRoute(user('location'), MENU)).toBe('/locations');
    expect(firstPermittedRoute(user('location', 'role'), MENU)).toBe('/roles');
    expect(firstPermittedRoute(user('email_template'), MENU)).toBe('/email-header-footer');
  });

  it('is null without permissions', () => {
    expect(firstPermittedRoute(user(), MENU)).toBeNull();
    expect(firstPermittedRoute(null, MENU)).toBeNull();
  });
});
