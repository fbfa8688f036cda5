import type { ProtocolBinding, Validator } from '@agentproto/runtime/contract';
import { PATHS } from './paths.js';
import * as validators from './validators.js';

/** yaml-media construct: its validators, paths and rules, and the package's conformance suite, project template and reference agent for it. */
export const binding: ProtocolBinding = {
  protocol: "yaml-media",
  version: "1",
  title: "yaml-media construct",
  package: "@agentproto/constructs",
  validators: validators as Readonly<Record<string, Validator>>,
  paths: PATHS,
  surface: async () => (await import("./surface.js")).SURFACE,
};
