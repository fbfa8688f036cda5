// A second process for the type files of a run's versions (version-types.ts). openapi-typescript, TypeScript's
// compiler and json-schema-to-typescript take the longest of a version's emitters, and they need nothing but the
// version's model: started before the run loads the schemas, the process loads those libraries while this one reads
// and checks them, then makes each version's type files while this one makes the rest (validators, routes, clients,
// translations). Worker threads would not do: on Node 20 they do not inherit the loader that runs these TypeScript
// sources. Anything that goes wrong in the second process — it cannot start, it exits, a request fails — makes the
// run make those files itself, so the output and every error are the ones of a run in one process.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from 'node:v8';
import type { ProtocolModel } from '../../model/protocol-model.js';
import type { TypesAnswer, TypesRequest } from './types-child.js';
import type { VersionTypes } from './version-types.js';

/** Makes the type files of versions; `close` lets go of the second process (call it once the run is done). */
export interface TypesMaker {
  emit(model: ProtocolModel): Promise<VersionTypes>;
  close(): void;
  /** How many versions' files the second process made (none when there is no second process). */
  answered(): number;
}

/**
 * The type files of `model`, made in this process. The emitters load when first needed: a run that starts the second
 * process starts it before loading them, so that process's own start-up is not kept waiting behind theirs.
 */
async function emitVersionTypes(model: ProtocolModel): Promise<VersionTypes> {
  return (await import('./version-types.js')).emitVersionTypes(model);
}

/** Makes the type files in this process. */
export const IN_PROCESS: TypesMaker = { emit: emitVersionTypes, close: () => undefined, answered: () => 0 };

// The generator's bundle (scripts/generate.mjs) replaces this name with the URL of the bundled second process; from
// the sources it is not defined.
declare const AGENTPROTO_TYPES_CHILD: URL | undefined;

/**
 * How to start the second process: the child module beside this one (the TypeScript source, or the built `.js` of a
 * published package) and the Node options that load it. A TypeScript source needs tsx's loader: the ES-module part of
 * the one installed beside the generator (the child imports its TypeScript and `require`s only the libraries, which
 * are JavaScript: without tsx's `require` hook they load faster), or else the one this process was started with
 * (`tsx script.ts` passes it in its options). Undefined when there is none. In the generator's bundle, the bundled
 * module, which needs no loader.
 */
function childCommand(): { file: string; execArgv: string[] } | undefined {
  if (typeof AGENTPROTO_TYPES_CHILD !== 'undefined')
    return { file: fileURLToPath(AGENTPROTO_TYPES_CHILD), execArgv: [] };
  const source = import.meta.url.endsWith('.ts');
  const file = fileURLToPath(new URL(`./types-child.${source ? 'ts' : 'js'}`, import.meta.url));
  if (!source) return { file, execArgv: [] };
  try {
    return { file, execArgv: ['--import', createRequire(import.meta.url).resolve('tsx/esm')] };
  } catch {
    const loaders = moduleOptions(process.execArgv);
    return loaders.some((a) => /[/\\]tsx[/\\]/.test(a)) ? { file, execArgv: loaders } : undefined;
  }
}

/**
 * The options among `execArgv` that load modules (`--import`, `--require`, `--loader` and `--conditions`, with their
 * values): what the second process needs to load this one's modules, and nothing else (not `--inspect`, whose port
 * this process holds, nor `--cpu-prof`).
 */
export function moduleOptions(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  const takesValue = /^(--import|--require|-r|--loader|--experimental-loader|--conditions|-C)$/;
  const withValue = /^(--import|--require|--loader|--experimental-loader|--conditions)=/;
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i] ?? '';
    const value = execArgv[i + 1];
    if (takesValue.test(option) && value !== undefined) {
      out.push(option, value);
      i++;
    } else if (withValue.test(option)) out.push(option);
  }
  return out;
}

/** Starts the second process; if it cannot be started, a maker that works in this process. */
export function startTypesProcess(): TypesMaker {
  const command = childCommand();
  if (!command) return IN_PROCESS;
  let child: ChildProcess | undefined;
  try {
    child = fork(command.file, [], {
      execArgv: command.execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
  } catch {
    return IN_PROCESS;
  }
  const pending = new Map<number, { model: ProtocolModel; done: (types: Promise<VersionTypes>) => void }>();
  let alive = true;
  let next = 0;
  let answered = 0;
  // Where the models sent go (made at the first), removed when the process is let go of.
  let folder: string | undefined;
  // Gone: what it was asked and did not answer is made here.
  const gone = () => {
    alive = false;
    for (const { model, done } of pending.values()) done(emitVersionTypes(model));
    pending.clear();
  };
  child.on('error', gone);
  child.on('exit', gone);
  child.on('message', (message: TypesAnswer) => {
    const request = pending.get(message.id);
    if (!request) return;
    pending.delete(message.id);
    // A failure is made again here, so that the error thrown is the library's own (MissingTypeLibraryError…).
    if ('types' in message) answered++;
    request.done('types' in message ? Promise.resolve(message.types) : emitVersionTypes(request.model));
    if (pending.size === 0) hold(false);
  });
  // Idle, it keeps nothing waiting: the run ends whether or not it was closed. While it owes an answer, it does.
  const hold = (on: boolean) => {
    if (on) {
      child?.ref();
      child?.channel?.ref();
    } else {
      child?.unref();
      child?.channel?.unref();
    }
  };
  hold(false);
  return {
    emit(model) {
      if (!alive || !child?.connected) return emitVersionTypes(model);
      const id = next++;
      // The model goes in a file and the request names it. Sent down the channel, a model larger than its buffer
      // (a large version's is some hundreds of kilobytes) would be written only as the second process reads it, which
      // it does not while it loads its libraries, nor this process while its own emitters run: each would wait for the
      // other. A file is written at once.
      let file: string;
      try {
        folder ??= mkdtempSync(path.join(tmpdir(), 'agentproto-types-'));
        file = path.join(folder, `${id}.bin`);
        writeFileSync(file, serialize(model));
      } catch {
        return emitVersionTypes(model);
      }
      return new Promise<VersionTypes>((resolve, reject) => {
        pending.set(id, { model, done: (types) => types.then(resolve, reject) });
        hold(true);
        const request: TypesRequest = { id, file };
        child?.send(request, (error) => {
          if (error && pending.delete(id)) emitVersionTypes(model).then(resolve, reject);
        });
      });
    },
    close() {
      alive = false;
      if (child?.connected) child.disconnect();
      if (folder) rmSync(folder, { recursive: true, force: true });
    },
    answered: () => answered,
  };
}
