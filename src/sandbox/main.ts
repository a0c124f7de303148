/**
 * `npm run sandbox -- --port 8787`: runs the analytics sandbox on its own so the bot, curl or a
 * browser can talk to it. Credentials come from SANDBOX_CLIENT_ID / SANDBOX_CLIENT_SECRET.
 */
import { isAppError } from '../errors.ts';
import { parseSandboxArgs, sandboxBanner, sandboxUsage } from './args.ts';
import { startSandbox } from './server.ts';

async function main(): Promise<void> {
  const options = parseSandboxArgs(process.argv.slice(2), process.env);
  if (options.help) {
    console.log(sandboxUsage);
    return;
  }
  const sandbox = await startSandbox({
    port: options.port,
    host: options.host,
    latencyMs: options.latencyMs,
    clients: [{ id: options.clientId, secret: options.clientSecret }],
  });
  console.log(sandboxBanner(sandbox.url, options));

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received, closing the sandbox`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (isAppError(error)) console.error(error.message);
  else if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
    console.error(`Cannot listen: ${error.message}. Pick another port with --port <n>.`);
  } else console.error(error);
  process.exitCode = 1;
});
