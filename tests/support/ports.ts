import { createServer } from 'node:net';

/**
 * A port nothing listens on now, as the system hands one out: a random pick in a fixed range can land
 * on a service of this machine (NATS on 4222, MariaDB on 3306, RabbitMQ on 5672...).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port from the system');
  return address.port;
}
