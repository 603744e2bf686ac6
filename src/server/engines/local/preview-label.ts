/**
 * The mark on every local render: a small "Local preview" label in the top right corner, white on
 * a translucent dark box, sized to the frame. It says honestly what the video is without covering
 * the subject (pictures are centred; the player's controls sit at the bottom).
 */

export const PREVIEW_LABEL = 'Local preview';

/** The label's size and place for a frame (exported for the tests that look for it). */
export function previewLabelBox(width: number, height: number): { fontSize: number; padding: number; margin: number } {
  const short = Math.min(width, height);
  const fontSize = Math.max(12, Math.round(short / 30));
  return { fontSize, padding: Math.round(fontSize * 0.4), margin: Math.round(short * 0.03) };
}

/** Paths go inside single quotes in the filter graph; a quote in a path could not be escaped there. */
export function quotedPath(file: string): string {
  if (file.includes("'")) throw new Error(`unsupported path for FFmpeg filters: ${file}`);
  return `'${file}'`;
}

/** drawtext for the label, drawn last (after looks and camera moves, so it holds still). */
export function previewLabelFilter(fontPath: string, width: number, height: number): string {
  const { fontSize, padding, margin } = previewLabelBox(width, height);
  return (
    `drawtext=fontfile=${quotedPath(fontPath)}:text='${PREVIEW_LABEL}':expansion=none:` +
    `fontcolor=white@0.92:fontsize=${fontSize}:x=w-text_w-${margin + padding}:y=${margin + padding}:` +
    `box=1:boxcolor=black@0.45:boxborderw=${padding}`
  );
}
