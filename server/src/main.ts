import { AccountService } from './accounts/account-service.ts';
import { PasswordHasher } from './accounts/password-hasher.ts';
import { RateLimiter } from './accounts/rate-limiter.ts';
import { buildApp } from './app.ts';
import { runBatchJob } from './commands/batch-run.ts';
import { runWorker } from './commands/worker.ts';
import { loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { loadOrCreateSecrets } from './secrets.ts';
import { SessionService } from './sessions/session-service.ts';

/** Capped by the kernel's net.core.somaxconn (4096 on current Linux). */
const LISTEN_BACKLOG = 4096;

const USAGE = `Usage: fieldline <command>
  serve              run the API server, web app and embedded job queue
  worker             run queued jobs from Redis (BullMQ); needs REDIS_URL, DATABASE_URL and the storage settings
  batch-run <jobId>  run one job and exit (the AWS Batch container's command; COMPUTE_BACKEND=aws-batch)
  migrate            apply database migrations and exit
  health             print the engine's health report
  admin grant <email>   make the user with this email an administrator
  admin revoke <email>  make an administrator an ordinary user again`;

async function main(argv: string[]): Promise<number> {
  const [command = 'serve'] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve': {
      const { app } = await buildApp(config);
      const shutdown = async (signal: string) => {
        app.log.info({ signal }, 'shutting down');
        await app.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void shutdown('SIGINT'));
      process.once('SIGTERM', () => void shutdown('SIGTERM'));
      // A backlog above Node's 511: a burst of a thousand pollers connecting at once must wait in the
      // kernel's accept queue, not have its handshakes dropped (each drop is a 1 s+ SYN retry).
      await app.listen({ host: config.host, port: config.port, backlog: LISTEN_BACKLOG });
      app.log.info(`Fieldline is serving on ${config.publicOrigin}`);
      return -1; // keep running
    }
    case 'worker':
      await runWorker(config);
      return -1; // keep running until SIGTERM/SIGINT
    case 'batch-run': {
      const jobId = argv[1];
      if (!jobId) {
        console.error(USAGE);
        return 2;
      }
      const end = await runBatchJob(config, jobId);
      console.log(`batch-run ${jobId}: ${end}`);
      return end === 'lost' ? 1 : 0;
    }
    case 'migrate': {
      const { db, close } = openDatabase(config.databaseUrl);
      const applied = await migrateToLatest(db);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      await close();
      return 0;
    }
    case 'health': {
      const { app, ctx } = await buildApp(config, { startQueue: false, logger: false });
      console.log(JSON.stringify(await ctx.engineHealth.get(), null, 2));
      await app.close();
      return 0;
    }
    case 'admin':
      return adminCommand(config, argv.slice(1));
    default:
      console.error(USAGE);
      return 2;
  }
}

/** `admin grant|revoke <email>`: roles are changed by an operator on the server, never over HTTP. */
async function adminCommand(config: ReturnType<typeof loadConfig>, args: string[]): Promise<number> {
  const [action, email] = args;
  if ((action !== 'grant' && action !== 'revoke') || !email) {
    console.error(USAGE);
    return 2;
  }
  const { db, close } = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db);
    const sessions = new SessionService(db, loadOrCreateSecrets(config.dataDir).sessionKey);
    const accounts = new AccountService(db, sessions, new PasswordHasher(), new RateLimiter(db), []);
    const user = await accounts.setRole(email, action === 'grant' ? 'admin' : 'user');
    if (!user) {
      console.error(`No user has the email ${email.trim().toLowerCase()}`);
      return 1;
    }
    console.log(
      `${user.email} is now ${user.role === 'admin' ? 'an administrator' : 'an ordinary user'}; their sessions were ended, so they log in again.`,
    );
    return 0;
  } finally {
    await close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
