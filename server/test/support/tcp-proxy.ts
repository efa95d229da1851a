import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './server-process.ts';

/**
 * A loopback TCP proxy in front of a service (the S3 emulator) that the test can take down and bring back
 * on the same port: the service is unreachable for a while but keeps its data, as in a network outage.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    if (!this.port) this.port = await freePort();
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((ok) => server.listen(this.port, '127.0.0.1', ok));
    this.server = server;
  }

  /** Refuses new connections and cuts the open ones (keep-alive included). */
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise((ok) => server.close(() => ok(undefined)));
  }
}
