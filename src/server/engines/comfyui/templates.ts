import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ASPECT_RATIOS, MODEL_INPUT_KINDS, modelIdSchema, RESOLUTIONS } from '../../../shared/models';

/** One place in a workflow: node id and input name. */
const targetSchema = z.object({ node: z.string().min(1), input: z.string().min(1) });
const targetsSchema = z
  .union([targetSchema, z.array(targetSchema).min(1)])
  .transform((t) => (Array.isArray(t) ? t : [t]));
export type Target = z.infer<typeof targetSchema>;

/** The small JSON beside a workflow template: which node input gets which of the job's values. */
export const templateMappingSchema = z.object({
  id: modelIdSchema.refine((id) => id.startsWith('comfyui-'), 'must start with comfyui-'),
  name: z.string().min(1).max(80),
  description: z.string().max(400).default('A workflow on this server’s own ComfyUI.'),
  inputs: z.array(z.enum(MODEL_INPUT_KINDS)).refine((i) => i.includes('text'), 'must include text'),
  durations: z.array(z.number().int().min(1).max(60)).min(1),
  fps: z.number().int().min(1).max(120),
  /** Frame counts are a multiple of this plus one (Wan: 4, LTX-Video: 8); 1 for any count. */
  frameStep: z.number().int().min(1).max(64).default(1),
  /** Width and height per aspect ratio; the aspect ratios offered are these keys. */
  sizes: z.partialRecord(
    z.enum(ASPECT_RATIOS),
    z.tuple([z.number().int().min(16).max(8192), z.number().int().min(16).max(8192)]),
  ),
  resolutions: z.array(z.enum(RESOLUTIONS)).min(1),
  sound: z.boolean().default(false),
  /** Takes an end frame (`fields.endImage`) besides the start image (keyframes). */
  endFrame: z.boolean().default(false),
  fields: z.object({
    prompt: targetsSchema,
    negativePrompt: targetsSchema.optional(),
    seed: targetsSchema.optional(),
    width: targetsSchema.optional(),
    height: targetsSchema.optional(),
    frames: targetsSchema.optional(),
    fps: targetsSchema.optional(),
    /** A LoadImage node's `image`; without an input image that node and every link to it are removed. */
    image: targetsSchema.optional(),
    /** The end frame's LoadImage `image`, for a template with `endFrame`; removed like `image` without one. */
    endImage: targetsSchema.optional(),
  }),
});
export type TemplateMapping = z.infer<typeof templateMappingSchema>;

/** A workflow in ComfyUI's API format: {"<node id>": {"class_type", "inputs"}}. */
const workflowSchema = z.record(
  z.string(),
  z.object({ class_type: z.string().min(1), inputs: z.record(z.string(), z.unknown()) }).passthrough(),
);
export type Workflow = z.infer<typeof workflowSchema>;

export interface ComfyTemplate {
  mapping: TemplateMapping;
  workflow: Workflow;
  file: string;
}

/** The shipped templates: beside this file in the sources, beside main.js in the bundle. */
export function builtInTemplatesDir(): string {
  const candidates = [path.join(import.meta.dirname, 'templates'), path.join(import.meta.dirname, 'comfyui-templates')];
  return candidates.find((dir) => existsSync(dir)) ?? candidates[0] ?? '';
}

/**
 * Reads every `<name>.json` workflow with its `<name>.map.json` mapping in a folder. Throws an Error
 * naming the file and the problem: templates are checked when the server starts.
 */
export function loadTemplates(dir: string): ComfyTemplate[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.map.json'))
    .sort();
  return files.map((mapFile) => {
    const file = path.join(dir, mapFile.replace(/\.map\.json$/, '.json'));
    const problem = (text: string) => new Error(`ComfyUI template ${path.join(dir, mapFile)}: ${text}`);
    const read = (name: string): unknown => {
      try {
        return JSON.parse(readFileSync(name, 'utf8')) as unknown;
      } catch (error) {
        throw problem(
          `${path.basename(name)} is not readable JSON (${error instanceof Error ? error.message : String(error)})`,
        );
      }
    };
    const mapping = templateMappingSchema.safeParse(read(path.join(dir, mapFile)));
    if (!mapping.success) {
      const issue = mapping.error.issues[0];
      throw problem(`${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is not valid'}`);
    }
    if (!existsSync(file)) throw problem(`its workflow ${path.basename(file)} is missing`);
    const workflow = workflowSchema.safeParse(read(file));
    if (!workflow.success)
      throw problem(`${path.basename(file)} is not a workflow in API format (Save (API Format) in ComfyUI)`);
    for (const [field, targets] of Object.entries(mapping.data.fields)) {
      for (const target of targets ?? []) {
        const node = workflow.data[target.node];
        if (!node) throw problem(`fields.${field} names node ${target.node}, which the workflow does not have`);
        if (!(target.input in node.inputs))
          throw problem(`fields.${field}: node ${target.node} has no input ${target.input}`);
      }
    }
    if (Object.keys(mapping.data.sizes).length === 0) throw problem('sizes must name at least one aspect ratio');
    return { mapping: mapping.data, workflow: workflow.data, file };
  });
}

export interface WorkflowValues {
  prompt: string;
  negativePrompt: string | undefined;
  seed: number;
  width: number;
  height: number;
  frames: number;
  fps: number;
  /** The uploaded image's name in ComfyUI's input folder, or null without an image. */
  image: string | null;
  /** The uploaded end frame's name, or null without one. */
  endImage?: string | null;
}

/** The template with the job's values filled in (a copy; the template is untouched). */
export function fillWorkflow(template: ComfyTemplate, values: WorkflowValues): Workflow {
  const workflow = structuredClone(template.workflow);
  const { fields } = template.mapping;
  const set = (targets: Target[] | undefined, value: unknown) => {
    for (const target of targets ?? []) {
      const node = workflow[target.node];
      if (node) node.inputs[target.input] = value;
    }
  };
  set(fields.prompt, values.prompt);
  if (values.negativePrompt !== undefined) set(fields.negativePrompt, values.negativePrompt);
  set(fields.seed, values.seed);
  set(fields.width, values.width);
  set(fields.height, values.height);
  set(fields.frames, values.frames);
  set(fields.fps, values.fps);
  if (values.image !== null) set(fields.image, values.image);
  else
    removeNodes(
      workflow,
      (fields.image ?? []).map((t) => t.node),
    );
  if (values.endImage) set(fields.endImage, values.endImage);
  else
    removeNodes(
      workflow,
      (fields.endImage ?? []).map((t) => t.node),
    );
  return workflow;
}

/** Deletes nodes and every input that links to them (links are ["<node id>", <output index>]). */
function removeNodes(workflow: Workflow, ids: string[]): void {
  const gone = new Set(ids);
  for (const id of gone) delete workflow[id];
  for (const node of Object.values(workflow)) {
    for (const [name, value] of Object.entries(node.inputs)) {
      if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && gone.has(value[0]))
        delete node.inputs[name];
    }
  }
}

/** Frames for a duration: duration x fps, moved to a multiple of `step`, plus one. */
export function frameCount(duration: number, fps: number, step: number): number {
  return Math.max(1, Math.round((duration * fps) / step)) * step + 1;
}
