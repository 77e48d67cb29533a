import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WhenNear } from './WhenNear';

/** A stand-in IntersectionObserver whose callback the test calls, as the browser would when the place nears the screen. */
function fakeObserver() {
  const observers: { callback: IntersectionObserverCallback; margin?: string; disconnected: boolean }[] = [];
  class Observer {
    entry: (typeof observers)[number];
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      this.entry = { callback, margin: options?.rootMargin, disconnected: false };
      observers.push(this.entry);
    }
    observe() {}
    disconnect() {
      this.entry.disconnected = true;
    }
  }
  vi.stubGlobal('IntersectionObserver', Observer);
  return observers;
}

afterEach(() => vi.unstubAllGlobals());

describe('WhenNear', () => {
  it('holds the place with the placeholder until the place nears the screen, then renders the children for good', () => {
    const observers = fakeObserver();
    render(
      <WhenNear placeholder={<p>placeholder</p>}>
        <p>the editor</p>
      </WhenNear>,
    );
    expect(screen.getByText('placeholder')).toBeTruthy();
    expect(screen.queryByText('the editor')).toBeNull();
    expect(observers[0].margin).toBe('600px');

    act(() => observers[0].callback([{ isIntersecting: false } as IntersectionObserverEntry], {} as IntersectionObserver));
    expect(screen.queryByText('the editor')).toBeNull();

    act(() => observers[0].callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver));
    expect(screen.getByText('the editor')).toBeTruthy();
    expect(screen.queryByText('placeholder')).toBeNull();
    expect(observers[0].disconnected).toBe(true);
  });

  it('renders the children at once where the browser has no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(
      <WhenNear placeholder={<p>placeholder</p>}>
        <p>the editor</p>
      </WhenNear>,
    );
    expect(screen.getByText('the editor')).toBeTruthy();
  });
});
