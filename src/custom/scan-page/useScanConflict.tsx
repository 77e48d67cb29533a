import { useCallback, useState } from 'react';
import { ConflictDialog, conflictOf } from '../../components/ConflictDialog';
import type { ConflictInfo } from '../../domain/versions';

interface Pending {
  conflict: ConflictInfo;
  /** The refused write again, made from the given (current) version, knowing what was saved meanwhile. */
  retry: (version: number, meanwhile: ConflictInfo) => Promise<unknown>;
}

/**
 * A scan edit refused with 409 (made from an older version than the stored one): the conflict dialog says who changed
 * the scan and what; Reload shows the current scan and drops the edit, Re-apply makes the same edit again from the
 * current version (its own toast says it is saved). `reload` asks the server for the scan again; `discard` drops
 * the edit where it outlives the write (an open form).
 */
export function useScanConflict(reload: () => Promise<unknown>, discard?: () => void) {
  const [pending, setPending] = useState<Pending | null>(null);

  const resolve = async (reapply: boolean) => {
    const p = pending;
    setPending(null);
    if (!p) return;
    try {
      // The write says itself how it went: its own toast, its error, or this dialog again.
      if (reapply) await p.retry(p.conflict.version, p.conflict);
      else discard?.();
    } catch {
      // Already reported by the write.
    } finally {
      await reload();
    }
  };

  const caught = useCallback((error: unknown, retry: Pending['retry']) => {
    const conflict = conflictOf(error);
    if (conflict) setPending({ conflict, retry });
    return conflict !== null;
  }, []);

  return {
    /** True when the error was a conflict, now shown in the dialog (`retry` makes the write again from a version). */
    caught,
    dialog: (
      <ConflictDialog
        conflict={pending?.conflict ?? null}
        record="scan"
        onReload={() => void resolve(false)}
        onReapply={() => void resolve(true)}
      />
    ),
  };
}
