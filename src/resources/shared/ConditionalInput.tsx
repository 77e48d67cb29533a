import { useEffect, type ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { FieldSpec } from '../../domain/fields';
import type { FormScreenMode, InputCondition } from '../types';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** What a hidden input is reset to: no ids for a list, nothing otherwise. */
export const emptyValueOf = (spec: FieldSpec) => (spec.type === 'references' || spec.type === 'multichoice' ? [] : null);

/**
 * Shows its input only while the condition holds. Hiding it empties the value (deselecting
 * the Agent role clears the agents), and an unmounted input is not validated, so a hidden rule never blocks a save.
 */
export const ConditionalInput = ({
  source,
  spec,
  condition,
  mode,
  children,
}: {
  source: string;
  spec: FieldSpec;
  condition: InputCondition;
  mode: FormScreenMode;
  children: ReactNode;
}) => {
  const watched: unknown[] = useWatch({ name: [...condition.on, source] });
  const values = Object.fromEntries(condition.on.map((name, i) => [name, watched[i]]));
  const visible = condition.when(values, mode);
  const current = watched[condition.on.length];
  const { setValue } = useFormContext();
  useEffect(() => {
    if (!visible && !isEmpty(current)) setValue(source, emptyValueOf(spec), { shouldDirty: true });
  }, [visible, current, source, spec, setValue]);
  return visible ? children : null;
};
