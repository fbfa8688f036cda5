import type { Validator } from '@agentproto/runtime';
