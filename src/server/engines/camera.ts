import type { CameraMove } from '../../shared/models';
import type { VideoEngine } from './engine';

/**
 * A camera move in words, for models whose APIs have no camera parameter (Veo, Kling 2.1 on fal and
 * Replicate, Wan, LTX-Video, Hailuo). Google's Veo prompt guide and Kling's prompt guide both ask for
 * the camera's movement named plainly in the prompt (pan, tilt, dolly, orbit/arc, crane, handheld),
 * one move per shot; these sentences do that.
 */
export const CAMERA_PHRASES: Record<CameraMove, string> = {
  static: 'Static shot: the camera stays still on a tripod.',
  'pan-left': 'The camera pans slowly to the left.',
  'pan-right': 'The camera pans slowly to the right.',
  'tilt-up': 'The camera tilts slowly up.',
  'tilt-down': 'The camera tilts slowly down.',
  'dolly-in': 'Slow dolly in: the camera moves forward toward the subject.',
  'dolly-out': 'Slow dolly out: the camera moves back away from the subject.',
  orbit: 'The camera orbits around the subject in a slow arc.',
  crane: 'Crane shot: the camera rises smoothly upward.',
  handheld: 'Handheld camera with a slight natural shake.',
};

/** What joins the prompt and the camera sentence. */
export const CAMERA_SEPARATOR = '\n\nCamera: ';

/** The prompt with the camera move's sentence appended, or the prompt unchanged when none was asked for. */
export function promptWithCamera(prompt: string, move: CameraMove | undefined): string {
  return move ? `${prompt}${CAMERA_SEPARATOR}${CAMERA_PHRASES[move]}` : prompt;
}

/** An engine that receives the job's camera move as a sentence at the end of its prompt. */
export function withCameraPhrase(engine: VideoEngine): VideoEngine {
  return {
    id: engine.id,
    render: (job, context) =>
      engine.render({ ...job, prompt: promptWithCamera(job.prompt, job.settings.cameraMove) }, context),
  };
}

/**
 * Kling's own camera control (`camera_control`, Kling API text2video and image2video): type
 * "simple" with exactly one non-zero field of `config`, each -10..10. Kling's names: `horizontal`
 * and `vertical` move the camera along x and y (negative: left, down); `pan` rotates it in the
 * vertical plane (negative: down, positive: up), `tilt` in the horizontal plane (negative: left,
 * positive: right); `zoom` changes the focal length (negative: narrower field of view, positive:
 * wider). So a film "pan left" is Kling's negative `tilt`, and a film "tilt up" its positive `pan`.
 * Moves without a simple equivalent (static, orbit, handheld) go into the prompt only.
 */
const KLING_SIMPLE: Partial<Record<CameraMove, Record<string, number>>> = {
  'pan-left': { tilt: -5 },
  'pan-right': { tilt: 5 },
  'tilt-up': { pan: 5 },
  'tilt-down': { pan: -5 },
  'dolly-in': { zoom: -5 },
  'dolly-out': { zoom: 5 },
  crane: { vertical: 5 },
};

export interface KlingCameraControl {
  type: 'simple';
  config: { horizontal: number; vertical: number; pan: number; tilt: number; roll: number; zoom: number };
}

/** Kling's `camera_control` for a move, or null when the move has no simple equivalent (or none was asked). */
export function klingCameraControl(move: CameraMove | undefined): KlingCameraControl | null {
  const axis = move ? KLING_SIMPLE[move] : undefined;
  if (!axis) return null;
  return { type: 'simple', config: { horizontal: 0, vertical: 0, pan: 0, tilt: 0, roll: 0, zoom: 0, ...axis } };
}
