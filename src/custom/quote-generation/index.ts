import { lazyPage } from '../../components/lazyPage';

/** Quote Generation: permission `scan`; the agent variant carries the agent id and hides 'Request quote check'. */
export const path = '/quotes/:scanId';
export const agentPath = '/quotes/:scanId/agents/:agentId';
export const permission = 'scan';
export const QuoteGenerationPage = lazyPage(() => import('./QuoteGenerationPage'), 'QuoteGenerationPage');
