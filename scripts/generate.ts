// `pnpm generate [--check]`: regenerates every protocol package from schemas/, or checks that none is stale.
import { runCli } from '@agentproto/cli';

process.exitCode = await runCli(['generate', ...process.argv.slice(2)]);
