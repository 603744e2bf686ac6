import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

let dir: string | undefined;

/**
 * A self-signed certificate for 127.0.0.1 and localhost, for the test servers that speak HTTPS (the
 * OpenID Connect providers). The server trusts it only the way production trusts a private CA:
 * through NODE_EXTRA_CA_CERTS, which Node reads when a process starts. Setting it here, in the main
 * Vitest process before any test worker is forked, puts it in every worker's environment at its
 * start. TEST_TLS_CERT_FILE and TEST_TLS_KEY_FILE tell the tests where the pair is.
 */
export async function setup(): Promise<void> {
  dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-test-tls-'));
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  writeFileSync(certFile, pems.cert);
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  // eslint-disable-next-line no-restricted-properties -- test setup: the workers' environment, not app configuration
  Object.assign(process.env, {
    NODE_EXTRA_CA_CERTS: certFile,
    TEST_TLS_CERT_FILE: certFile,
    TEST_TLS_KEY_FILE: keyFile,
  });
}

export function teardown(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
