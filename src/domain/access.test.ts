import { describe, expect, it } from 'vitest';
import { activeTrail, firstPermittedRoute, isGroup, MENU, visibleMenu, type MenuNode } from './access';

const user = (...permissions: string[]) => ({ permissions });

/** The menu as nested ids, to compare whole shapes. */
const ids = (nodes: MenuNode[]): unknown[] => nodes.map((n) => (isGroup(n) ? { [n.id]: ids(n.children) } : n.id));

describe('visibleMenu', () => {
  it('shows a leaf only with its permission and a group only with a visible child', () => {
    expect(ids(visibleMenu(user('location')))).toEqual(['dashboard', { setting: ['locations'] }]);
  });

  it('shows only the dashboard without permissions or without a user', () => {
    expect(ids(visibleMenu(user()))).toEqual(['dashboard']);
    expect(ids(visibleMenu(null))).toEqual(['dashboard']);
  });

  it('gates Panel Groups and Panels on `part`', () => {
    expect(ids(visibleMenu(user('part')))).toEqual(['dashboard', { setting: ['parts', 'panelgroups', 'panels'] }]);
    expect(ids(visibleMenu(user('panel', 'panelgroup')))).toEqual(['dashboard']);
  });

  it('gates Application Settings on `user`', () => {
    expect(ids(visibleMenu(user('user')))).toEqual(['dashboard', { configuration: ['users'] }, { setting: ['app-settings'] }]);
    expect(ids(visibleMenu(user('app_setting')))).toEqual(['dashboard']);
  });

  it('shows the nested E-mail Template group under Setting', () => {
    expect(ids(visibleMenu(user('email_template', 'scan')))).toEqual([
      'dashboard',
      'scans',
      'quotes',
      { setting: [{ 'email-template': ['email-header-footer', 'email-templates'] }] },
    ]);
  });

  it('shows the whole menu to a user holding every permission', () => {
    const all = user('scan', 'user', 'role', 'permission', 'device', 'location', 'client', 'agent', 'product', 'part', 'email_template');
    expect(visibleMenu(all)).toEqual(MENU);
  });

  it('does not change the menu it filters', () => {
    const before = JSON.stringify(MENU);
    visibleMenu(user('location'));
    expect(JSON.stringify(MENU)).toBe(before);
  });
});

describe('activeTrail', () => {
  it.each([
    ['/', ['dashboard']],
    ['/dashboard', ['dashboard']],
    ['/scans', ['scans']],
    ['/scans/12/show', ['scans']],
    ['/locations', ['setting', 'locations']],
    ['/locations/5', ['setting', 'locations']],
    ['/users/create', ['configuration', 'users']],
    ['/panels/2', ['setting', 'panels']],
    ['/panelgroups/2', ['setting', 'panelgroups']],
    ['/email-templates/3', ['setting', 'email-template', 'email-templates']],
    ['/email-header-footer', ['setting', 'email-template', 'email-header-footer']],
  ])('%s → %j', (path, trail) => {
    expect(activeTrail(path)).toEqual(trail);
  });

  it('matches whole segments only, and nothing for unknown paths', () => {
    expect(activeTrail('/locationsX')).toBeNull();
    expect(activeTrail('/unknown')).toBeNull();
    expect(activeTrail('/dashboardish')).toBeNull();
  });
});

describe('firstPermittedRoute', () => {
  it('skips the dashboard and returns the first gated leaf the user may open', () => {
    expect(firstPermittedRoute(user('scan'))).toBe('/scans');
    expect(firstPermittedRoute(user('location'))).toBe('/locations');
    expect(firstPermittedRoute(user('location', 'role'))).toBe('/roles');
    expect(firstPermittedRoute(user('email_template'))).toBe('/email-header-footer');
  });

  it('is null without permissions', () => {
    expect(firstPermittedRoute(user())).toBeNull();
    expect(firstPermittedRoute(null)).toBeNull();
  });
});
