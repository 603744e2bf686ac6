import { randomUUID } from 'node:crypto';
import { WebSocket, WebSocketServer } from 'ws';
import { type FakeServer, type Recorded, type Reply, startFakeServer } from './fake-provider';

export type ComfyOutcome = 'video' | 'error' | 'never';

interface ComfyPrompt {
  id: string;
  number: number;
  clientId: string;
  workflow: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  outcome: ComfyOutcome;
  state: 'pending' | 'running' | 'done' | 'error' | 'interrupted';
}

export interface FakeComfy {
  baseUrl: string;
  server: FakeServer;
  /** When set, every request must carry this header. */
  auth: { name: string; value: string } | undefined;
  outcome: ComfyOutcome;
  rateLimitNext: number;
  rateLimited: number;
  stepMs: number;
  /** When false, the WebSocket refuses connections (the engine then polls /history alone). */
  socketOpen: boolean;
  prompts: ComfyPrompt[];
  uploads: { filename: string; bytes: number }[];
  interrupted: string[];
  deleted: string[];
  /** Binary preview frames sent, to show they are ignored. */
  close(): Promise<void>;
}

export const COMFY_ERROR_MESSAGE = 'Safety checker: the generated frames were flagged as not safe for work.';

/**
 * A local ComfyUI: /upload/image, /prompt, /queue, /history/{id}, /view, /interrupt, and the
 * WebSocket /ws?clientId= sending status, execution_start, executing, progress (value/max) and a
 * binary preview, then executing with node null when the run ends.
 */
export async function startFakeComfy(video: Buffer): Promise<FakeComfy> {
  const server = await startFakeServer();
  const sockets = new Map<string, WebSocket>();
  const timers = new Set<NodeJS.Timeout>();
  const wss = new WebSocketServer({ noServer: true });
  let counter = 0;
  const fake: FakeComfy = {
    baseUrl: server.baseUrl,
    server,
    auth: undefined,
    outcome: 'video',
    rateLimitNext: 0,
    rateLimited: 0,
    stepMs: 400,
    socketOpen: true,
    prompts: [],
    uploads: [],
    interrupted: [],
    deleted: [],
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets.values()) socket.terminate();
      wss.close();
      await server.close();
    },
  };
  server.server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '', server.baseUrl);
    const authorized = !fake.auth || request.headers[fake.auth.name] === fake.auth.value;
    if (url.pathname !== '/ws' || !fake.socketOpen || !authorized) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const clientId = url.searchParams.get('clientId') ?? randomUUID();
      sockets.set(clientId, ws);
      ws.send(
        JSON.stringify({
          type: 'status',
          data: {
            status: { exec_info: { queue_remaining: fake.prompts.filter((p) => p.state === 'pending').length } },
            sid: clientId,
          },
        }),
      );
    });
  });

  const send = (prompt: ComfyPrompt, message: object | Buffer) => {
    const socket = sockets.get(prompt.clientId);
    if (socket?.readyState !== WebSocket.OPEN) return;
    socket.send(Buffer.isBuffer(message) ? message : JSON.stringify(message));
  };
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  /** Runs a prompt: queued one step, then 3 sampler steps of progress, then done or an execution error. */
  const schedule = (prompt: ComfyPrompt) => {
    const step = fake.stepMs;
    later(step, () => {
      if (prompt.state !== 'pending') return;
      prompt.state = 'running';
      send(prompt, { type: 'execution_start', data: { prompt_id: prompt.id, timestamp: Date.now() } });
      send(prompt, { type: 'executing', data: { node: '3', display_node: '3', prompt_id: prompt.id } });
    });
    for (const [i, value] of [5, 12, 20].entries()) {
      later(step * (2 + i), () => {
        if (prompt.state !== 'running') return;
        send(prompt, { type: 'progress', data: { value, max: 20, prompt_id: prompt.id, node: '3' } });
        send(prompt, Buffer.from([0, 0, 0, 1, 0xff, 0xd8, 0xff])); // a preview image: binary, to be ignored
      });
    }
    if (prompt.outcome === 'never') return;
    later(step * 5, () => {
      if (prompt.state !== 'running') return;
      if (prompt.outcome === 'error') {
        prompt.state = 'error';
        send(prompt, {
          type: 'execution_error',
          data: {
            prompt_id: prompt.id,
            node_id: '3',
            node_type: 'KSampler',
            exception_message: COMFY_ERROR_MESSAGE,
            exception_type: 'RuntimeError',
            traceback: [],
          },
        });
        return;
      }
      prompt.state = 'done';
      send(prompt, { type: 'executed', data: { node: '58', prompt_id: prompt.id, output: {} } });
      send(prompt, { type: 'executing', data: { node: null, prompt_id: prompt.id } });
    });
  };

  const history = (prompt: ComfyPrompt) => {
    if (prompt.state === 'done') {
      return {
        [prompt.id]: {
          prompt: [prompt.number, prompt.id, prompt.workflow, {}, ['58']],
          outputs: {
            '58': {
              images: [{ filename: 'reelsmith_00001_.mp4', subfolder: 'video', type: 'output' }],
              animated: [true],
            },
          },
          status: {
            status_str: 'success',
            completed: true,
            messages: [
              ['execution_start', { prompt_id: prompt.id }],
              ['execution_success', { prompt_id: prompt.id }],
            ],
          },
        },
      };
    }
    if (prompt.state === 'error') {
      return {
        [prompt.id]: {
          outputs: {},
          status: {
            status_str: 'error',
            completed: false,
            messages: [
              [
                'execution_error',
                { prompt_id: prompt.id, node_type: 'KSampler', exception_message: COMFY_ERROR_MESSAGE },
              ],
            ],
          },
        },
      };
    }
    return {};
  };

  server.route = (request: Recorded): Reply => {
    const url = new URL(request.path, server.baseUrl);
    if (fake.auth && request.headers[fake.auth.name] !== fake.auth.value)
      return { status: 401, json: { error: 'unauthorized' } };
    if (fake.rateLimitNext > 0) {
      fake.rateLimitNext -= 1;
      fake.rateLimited += 1;
      return { status: 429, json: { error: 'Too many requests' } };
    }
    if (request.method === 'POST' && url.pathname === '/upload/image') {
      const name = /filename="([^"]+)"/.exec(request.body)?.[1] ?? 'upload.png';
      fake.uploads.push({ filename: name, bytes: Buffer.byteLength(request.body) });
      return { status: 200, json: { name, subfolder: '', type: 'input' } };
    }
    if (request.method === 'POST' && url.pathname === '/prompt') {
      const body = JSON.parse(request.body) as { prompt: ComfyPrompt['workflow']; client_id: string };
      // As ComfyUI validates a graph: every node has a class, every link names a node that exists.
      const broken = Object.entries(body.prompt).find(
        ([, node]) =>
          !node.class_type ||
          Object.values(node.inputs).some(
            (value) =>
              Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && !(value[0] in body.prompt),
          ),
      );
      if (broken) {
        const [id, node] = broken;
        return {
          status: 400,
          json: {
            error: {
              type: 'prompt_outputs_failed_validation',
              message: 'Prompt outputs failed validation',
              details: '',
            },
            node_errors: {
              [id]: {
                errors: [{ type: 'bad_linked_input', message: 'Bad linked input', details: 'links to a missing node' }],
                class_type: node.class_type,
              },
            },
          },
        };
      }
      counter += 1;
      const prompt: ComfyPrompt = {
        id: randomUUID(),
        number: counter,
        clientId: body.client_id,
        workflow: body.prompt,
        outcome: fake.outcome,
        state: 'pending',
      };
      fake.prompts.push(prompt);
      schedule(prompt);
      return { status: 200, json: { prompt_id: prompt.id, number: prompt.number, node_errors: {} } };
    }
    if (request.method === 'GET' && url.pathname === '/queue') {
      const row = (p: ComfyPrompt) => [p.number, p.id, p.workflow, {}, []];
      return {
        status: 200,
        json: {
          queue_running: fake.prompts.filter((p) => p.state === 'running').map(row),
          queue_pending: fake.prompts.filter((p) => p.state === 'pending').map(row),
        },
      };
    }
    if (request.method === 'POST' && url.pathname === '/queue') {
      const ids = (JSON.parse(request.body) as { delete?: string[] }).delete ?? [];
      for (const prompt of fake.prompts.filter((p) => ids.includes(p.id) && p.state === 'pending'))
        prompt.state = 'interrupted';
      fake.deleted.push(...ids);
      return { status: 200, json: {} };
    }
    if (request.method === 'POST' && url.pathname === '/interrupt') {
      const id = request.body ? (JSON.parse(request.body) as { prompt_id?: string }).prompt_id : undefined;
      for (const prompt of fake.prompts.filter((p) => p.state === 'running' && (!id || p.id === id))) {
        prompt.state = 'interrupted';
        fake.interrupted.push(prompt.id);
        send(prompt, {
          type: 'execution_interrupted',
          data: { prompt_id: prompt.id, node_id: '3', node_type: 'KSampler', executed: [] },
        });
      }
      return { status: 200, json: {} };
    }
    const historyMatch = /^\/history\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && historyMatch) {
      const prompt = fake.prompts.find((p) => p.id === historyMatch[1]);
      return { status: 200, json: prompt ? history(prompt) : {} };
    }
    if (request.method === 'GET' && url.pathname === '/view') {
      const ok =
        url.searchParams.get('filename') === 'reelsmith_00001_.mp4' &&
        url.searchParams.get('subfolder') === 'video' &&
        url.searchParams.get('type') === 'output';
      return ok ? { status: 200, bytes: video } : { status: 404, json: { error: 'not found' } };
    }
    return { status: 404, json: { error: 'not found' } };
  };
  return fake;
}
