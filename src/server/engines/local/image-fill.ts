/**
 * A still image fitted into a canvas of another shape: the whole image, sharp and centred, over a
 * blurred and darkened fill that continues it to the canvas's edges, its edges feathered into that
 * fill so no seam shows. It runs on the single decoded image, once per render, before the camera
 * moves over it, so its cost does not grow with the length of the video.
 */

export interface ImageSize {
  width: number;
  height: number;
}

/** How far the image's edges fade into the fill, as a share of the canvas's shorter side. */
export const FEATHER_SHARE = 0.05;
/** How much the fitted image is sharpened (unsharp's luma amount). */
const SHARPEN = 0.45;
/** The fill is made at this fraction of the canvas size: a strong blur for almost no work. */
const FILL_SCALE = 1 / 16;

const even = (value: number) => Math.max(2, 2 * Math.round(value / 2));

interface Placement {
  width: number;
  height: number;
  left: number;
  top: number;
}

/** The largest size of the image that fits the box (even sides), centred in it. */
export function fitImage(image: ImageSize, boxWidth: number, boxHeight: number): Placement {
  const scale = Math.min(boxWidth / image.width, boxHeight / image.height);
  const width = Math.min(boxWidth, even(image.width * scale));
  const height = Math.min(boxHeight, even(image.height * scale));
  return { width, height, left: Math.floor((boxWidth - width) / 2), top: Math.floor((boxHeight - height) / 2) };
}

/**
 * The fill: the image at a sixteenth of the canvas, continued to the edges by mirroring it (by
 * repeating its edge pixels when the bars are wider than the image, where mirroring cannot reach),
 * blurred three times over (close to a Gaussian), darkened a little, then scaled smoothly to the
 * canvas. Near the image it has the image's own colours, so the two meet without a step.
 */
function fillFilter(image: ImageSize, canvasWidth: number, canvasHeight: number): string {
  const [w, h] = [even(canvasWidth * FILL_SCALE), even(canvasHeight * FILL_SCALE)];
  const small = fitImage(image, w, h);
  const right = w - small.width - small.left;
  const bottom = h - small.height - small.top;
  const mirrors = Math.max(small.left, right) <= small.width && Math.max(small.top, bottom) <= small.height;
  // boxblur refuses a radius over half of a (half-sized) chroma plane.
  const radius = Math.max(1, Math.floor(Math.min(w, h) / 10));
  return (
    `scale=${small.width}:${small.height}:flags=area,pad=${w}:${h}:${small.left}:${small.top},` +
    `fillborders=left=${small.left}:right=${right}:top=${small.top}:bottom=${bottom}:mode=${mirrors ? 'mirror' : 'smear'},` +
    `boxblur=${radius}:3,eq=brightness=-0.07:saturation=0.85,` +
    `scale=${canvasWidth}:${canvasHeight}:flags=bicubic`
  );
}

/**
 * The image scaled once, with Lanczos, straight to its place on the canvas (never larger), then
 * lightly sharpened (luma only; an upscaled photo otherwise looks soft) over a radius that grows
 * with the canvas's oversampling, so the frame gets the same sharpening either way.
 */
function fittedFilter(fitted: Placement, oversample: number): string {
  const matrix = 2 * Math.round(2 * oversample) + 1;
  return `scale=${fitted.width}:${fitted.height}:flags=lanczos,unsharp=${matrix}:${matrix}:${SHARPEN}:3:3:0`;
}

/**
 * The image's alpha: opaque, fading to transparent (smoothstep, so the fade has no visible start or
 * end) over the last pixels of the two sides that meet the fill. A fitted image meets the fill on
 * two opposite sides only, so the mask is one line of ramp stretched over the image (a fraction of
 * the work of computing every pixel).
 */
function featherMask(fitted: Placement, canvasWidth: number, canvasHeight: number): string {
  const feather = Math.max(2, Math.round(Math.min(canvasWidth, canvasHeight) * FEATHER_SHARE));
  const across = fitted.left > 0;
  const [pos, size] = across ? ['X', 'W'] : ['Y', 'H'];
  const t = `clip(min(${pos},${size}-1-${pos})/${feather},0,1)`;
  return (
    `format=gray,scale=${across ? `${fitted.width}:1` : `1:${fitted.height}`}:flags=neighbor,` +
    `geq=lum='255*(${t})*(${t})*(3-2*(${t}))',scale=${fitted.width}:${fitted.height}:flags=neighbor`
  );
}

/**
 * A filter-graph chain from one image stream to the framed image on a canvas `oversample` times
 * the frame's size (the camera then moves over it). `tag` names its internal links
 * (`[<tag>fill]`, ...), so one graph can frame several images.
 */
export function framedImageFilter(
  image: ImageSize,
  frame: { width: number; height: number },
  oversample: number,
  tag = 'img',
): string {
  const l = (name: string) => `[${tag}${name}]`;
  const [canvasWidth, canvasHeight] = [frame.width * oversample, frame.height * oversample];
  const fitted = fitImage(image, canvasWidth, canvasHeight);
  const fill = fillFilter(image, canvasWidth, canvasHeight);
  if (fitted.left === 0 && fitted.top === 0) return `${fittedFilter(fitted, oversample)},setsar=1`;
  return (
    `split${l('fillsrc')}${l('fitsrc')};` +
    `${l('fillsrc')}${fill}${l('fill')};` +
    `${l('fitsrc')}${fittedFilter(fitted, oversample)},split${l('fit')}${l('masksrc')};` +
    `${l('masksrc')}${featherMask(fitted, canvasWidth, canvasHeight)}${l('mask')};` +
    `${l('fit')}${l('mask')}alphamerge${l('fg')};` +
    `${l('fill')}${l('fg')}overlay=${fitted.left}:${fitted.top},setsar=1`
  );
}
