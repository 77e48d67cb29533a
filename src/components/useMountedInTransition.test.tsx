import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useMountedInTransition } from './useMountedInTransition';

const Shell = ({ log }: { log: boolean[] }) => {
  const ready = useMountedInTransition();
  log.push(ready);
  return ready ? <p>the heavy part</p> : <p>light first frame</p>;
};

describe('useMountedInTransition', () => {
  it('renders the light frame first, then the heavy part once the transition is done', async () => {
    const log: boolean[] = [];
    await act(async () => {
      render(<Shell log={log} />);
    });
    expect(screen.getByText('the heavy part')).toBeTruthy();
    expect(log[0]).toBe(false);
    expect(log.at(-1)).toBe(true);
  });
});
