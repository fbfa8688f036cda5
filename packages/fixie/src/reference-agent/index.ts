// The Fixie reference agents: the seed's code-shot agent and a standalone one.
export {
  createReferenceAgent,
  createReferenceStandaloneAgent,
  FEW_SHOTS,
  type ReferenceOptions,
} from './reference-agent.js';
