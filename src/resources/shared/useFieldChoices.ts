import { useMemo } from 'react';
import { useResourceContext, useTranslate } from 'react-admin';

type Choices = readonly { id: string; name: string }[];

/**
 * A fixed list's choices labelled resources.<name>.choices.<source>.<id> in the user's language,
 * or by the domain's English name when the catalogue has no such key.
 */
export function useFieldChoices(source: string, choices: Choices): { id: string; name: string }[] {
  const translate = useTranslate();
  const resource = useResourceContext();
  return useMemo(
    () => choices.map(({ id, name }) => ({ id, name: translate(`resources.${resource}.choices.${source}.${id}`, { _: name }) })),
    [choices, resource, source, translate],
  );
}
