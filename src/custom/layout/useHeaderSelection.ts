import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useDataProvider, useNavigate, useRefresh } from 'react-admin';
import { useSelectOptions } from '../../components/useSelectOptions';
import type { AppDataProvider, SelectOption } from '../../dataProvider';
import {
  setAgentBranding,
  setSelectedAgent,
  setSelectedClient,
  toAgentBranding,
  useCurrentUser,
  useSelectedAgent,
  useSelectedClient,
  type Selection,
} from '../../session';

export type Choice = number | 'all';

const NO_OPTIONS: SelectOption[] = [];

const idsOf = (s: Selection) => (s === null ? [] : Array.isArray(s) ? s : [s]);

/**
 * Once per visit, when the list has arrived: keep a stored selection only if the user can still
 * see it (it may be another user's); with none, pick the user's first agent or client.
 */
function useSelectionOnLoad(
  resource: 'agents' | 'clients',
  selection: Selection,
  firstOfUser: number | undefined,
  apply: (id: number | null) => void | Promise<void>,
) {
  const { data: options, error } = useSelectOptions(resource);
  const checked = useRef(false);
  useEffect(() => {
    // A failed list is logged only.
    if (error) console.error(`Failed to load the ${resource} list`, error);
  }, [error, resource]);
  useEffect(() => {
    if (!options || checked.current) return;
    checked.current = true;
    const visible = new Set(options.map((o) => String(o.value)));
    const stored = idsOf(selection);
    if (stored.length && stored.every((id) => visible.has(String(id)))) return;
    const first = firstOfUser !== undefined && visible.has(String(firstOfUser)) ? firstOfUser : null;
    if (stored.length || first !== null) void apply(first);
  }, [options, selection, firstOfUser, apply]);
  return options ?? NO_OPTIONS;
}

/**
 * The header's agent and client selection: stored in local storage and sent as X_SNG_* headers;
 * a specific agent brings its branding; every choice reloads the data on /dashboard.
 */
export function useHeaderSelection(): {
  agent: Selection;
  client: Selection;
  agentOptions: SelectOption[];
  clientOptions: SelectOption[];
  chooseAgent: (choice: Choice) => void;
  chooseClient: (choice: Choice) => void;
} {
  const user = useCurrentUser();
  const agent = useSelectedAgent();
  const client = useSelectedClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const navigate = useNavigate();
  const refresh = useRefresh();

  const applyAgent = useCallback(
    async (id: number | null) => {
      setSelectedAgent(id);
      setAgentBranding(null);
      if (id === null) return;
      try {
        setAgentBranding(toAgentBranding(await dataProvider.agentBranding(id)));
      } catch (error) {
        // Logged only; the theme stays the default.
        console.error('Failed to load the agent branding', error);
      }
    },
    [dataProvider],
  );
  const applyClient = useCallback((id: number | null) => setSelectedClient(id), []);

  const agentOptions = useSelectionOnLoad('agents', agent, user?.agents[0], applyAgent);
  const clientOptions = useSelectionOnLoad('clients', client, user?.clients[0], applyClient);

  const choose = useCallback(
    (apply: (id: number | null) => unknown) => (choice: Choice) =>
      void (async () => {
        await apply(choice === 'all' ? null : choice);
        navigate('/dashboard');
        refresh();
      })(),
    [navigate, refresh],
  );

  // Stable between renders, so a selector re-renders only when its own options or value change.
  const chooseAgent = useMemo(() => choose(applyAgent), [choose, applyAgent]);
  const chooseClient = useMemo(() => choose(applyClient), [choose, applyClient]);
  return { agent, client, agentOptions, clientOptions, chooseAgent, chooseClient };
}
