export {
  createReferenceAgent,
  createReferenceStandaloneAgent,
  FEW_SHOTS,
  type ReferenceOptions,
} from './reference-agent.js';
