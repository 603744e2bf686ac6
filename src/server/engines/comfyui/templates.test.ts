import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtInTemplatesDir, fillWorkflow, frameCount, loadTemplates } from './templates';

// The shipped templates and the checks an operator's own template passes at start.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function operatorDir(
  mapping: (m: Record<string, unknown>) => unknown,
  workflow?: (w: Record<string, unknown>) => unknown,
) {
  const dir = mkdtempSync(path.join(tmpdir(), 'comfy-op-'));
  dirs.push(dir);
  const shipped = builtInTemplatesDir();
  const map = JSON.parse(readFileSync(path.join(shipped, 'ltxv-t2v.map.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(path.join(dir, 'mine.map.json'), JSON.stringify(mapping({ ...map, id: 'comfyui-mine' })));
  if (workflow) {
    const flow = JSON.parse(readFileSync(path.join(shipped, 'ltxv-t2v.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(dir, 'mine.json'), JSON.stringify(workflow(flow)));
  } else {
    cpSync(path.join(shipped, 'ltxv-t2v.json'), path.join(dir, 'mine.json'));
  }
  return dir;
}

describe('ComfyUI workflow templates', () => {
  it('ships LTX-Video, Wan 2.1 first-last-frame and Wan 2.2 TI2V 5B, each valid against its mapping', () => {
    const templates = loadTemplates(builtInTemplatesDir());
    expect(templates.map((t) => t.mapping.id)).toEqual([
      'comfyui-ltxv',
      'comfyui-wan21-flf2v-14b',
      'comfyui-wan22-ti2v-5b',
    ]);
    expect(templates.map((t) => t.mapping.endFrame)).toEqual([false, true, false]);
    expect(frameCount(5, 24, 4)).toBe(121);
    expect(frameCount(4, 24, 8)).toBe(97);
  });

  it('fills a copy: the template itself is untouched', () => {
    const [ltx] = loadTemplates(builtInTemplatesDir());
    if (!ltx) throw new Error('no template');
    const before = JSON.stringify(ltx.workflow);
    const filled = fillWorkflow(ltx, {
      prompt: 'p',
      negativePrompt: undefined,
      seed: 9,
      width: 512,
      height: 768,
      frames: 97,
      fps: 24,
      image: null,
    });
    expect(filled['6']?.inputs.text).toBe('p');
    // Without a negative prompt the template's own stays.
    expect(filled['7']?.inputs.text).toBe(ltx.workflow['7']?.inputs.text);
    expect(JSON.stringify(ltx.workflow)).toBe(before);
  });

  it('refuses an operator template whose mapping names a node or input the workflow lacks, or that is not JSON', () => {
    const missingNode = operatorDir((m) => ({
      ...m,
      fields: { ...(m.fields as object), seed: { node: '404', input: 'seed' } },
    }));
    expect(() => loadTemplates(missingNode)).toThrow(
      /mine\.map\.json: fields\.seed names node 404, which the workflow does not have/,
    );
    const missingInput = operatorDir((m) => ({
      ...m,
      fields: { ...(m.fields as object), seed: { node: '72', input: 'seeed' } },
    }));
    expect(() => loadTemplates(missingInput)).toThrow(/node 72 has no input seeed/);
    const badId = operatorDir((m) => ({ ...m, id: 'my flow' }));
    expect(() => loadTemplates(badId)).toThrow(/id/);
    const notWorkflow = operatorDir(
      (m) => m,
      () => ['not', 'a', 'workflow'],
    );
    expect(() => loadTemplates(notWorkflow)).toThrow(/not a workflow in API format/);
    const dir = operatorDir((m) => m);
    writeFileSync(path.join(dir, 'mine.json'), '{ broken');
    expect(() => loadTemplates(dir)).toThrow(/mine\.json is not readable JSON/);
  });
});
