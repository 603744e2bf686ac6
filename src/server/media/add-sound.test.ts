import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { binaries, probeStreams, writeTestClip } from '../../../tests/support/media';
import { addSound } from './add-sound';

// Add sound on this server (issue 48): a recording laid under a silent clip becomes its sound, as
// long as the picture, faded out at the end; under a clip with sound it is mixed beneath it.

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-add-sound-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function tone(name: string, seconds: number, hz: number): Promise<string> {
  const file = path.join(dir, name);
  await run(binaries.ffmpeg, ['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `sine=f=${hz}:d=${seconds}`, file]);
  return file;
}

/** The loudest level (dBFS) of the sound between two times, read by FFmpeg's volumedetect. */
async function peakDb(file: string, from: number, to: number): Promise<number> {
  const { stderr } = await run(binaries.ffmpeg, [
    ...['-hide_banner', '-nostats', '-i', file, '-vn', '-af', `atrim=${from}:${to},volumedetect`, '-f', 'null', '-'],
  ]);
  const match = /max_volume: (-?[\d.]+|-inf) dB/.exec(stderr);
  return match?.[1] === undefined || match[1] === '-inf' ? -Infinity : Number(match[1]);
}

const streamsOf = async (file: string) => {
  const { streams } = await probeStreams(file);
  return {
    video: streams.find((s) => s.codec_type === 'video'),
    audio: streams.filter((s) => s.codec_type === 'audio'),
  };
};

const limits = { signal: new AbortController().signal, timeoutMs: 60_000 };

describe('add sound on this server', () => {
  it('gives a silent clip a sound as long as its picture, the picture untouched, faded out at its end', async () => {
    const video = await writeTestClip(path.join(dir, 'silent.mp4'), 2, { tone: null });
    expect((await streamsOf(video)).audio).toHaveLength(0);
    const output = path.join(dir, 'with-sound.mp4');
    const fractions: number[] = [];
    await addSound(
      binaries,
      { video, recording: await tone('long.wav', 5, 330), output },
      { seconds: 2, videoHasAudio: false },
      { ...limits, onProgress: (fraction) => fractions.push(fraction) },
    );
    const before = await streamsOf(video);
    const after = await streamsOf(output);
    expect(after.audio).toHaveLength(1);
    expect(after.audio[0]?.codec_name).toBe('aac');
    expect(Math.abs(Number(after.audio[0]?.duration) - Number(before.video?.duration))).toBeLessThan(0.05);
    // The picture is copied, not encoded again.
    expect(after.video?.codec_name).toBe('h264');
    expect(after.video?.nb_frames).toBe(before.video?.nb_frames);
    expect(await peakDb(output, 0.5, 1)).toBeGreaterThan(-30);
    // Faded out: the last tenth of a second is far quieter than the middle.
    expect(await peakDb(output, 1.92, 2)).toBeLessThan((await peakDb(output, 0.5, 1)) - 12);
    expect(fractions.at(-1)).toBeGreaterThan(0.9);
  });

  it('pads a shorter recording with silence to the video’s length', async () => {
    const video = await writeTestClip(path.join(dir, 'silent-3.mp4'), 3, { tone: null });
    const output = path.join(dir, 'padded.mp4');
    await addSound(
      binaries,
      { video, recording: await tone('short.wav', 1, 330), output },
      { seconds: 3, videoHasAudio: false },
      limits,
    );
    const after = await streamsOf(output);
    expect(Math.abs(Number(after.audio[0]?.duration) - 3)).toBeLessThan(0.05);
    // Silence after it (what AAC leaves of digital silence is far below hearing).
    expect(await peakDb(output, 2.1, 3)).toBeLessThan(-60);
  });

  it('mixes the recording under a clip’s own sound, 12 dB lower', async () => {
    const video = await writeTestClip(path.join(dir, 'sound.mp4'), 2, { tone: 440 });
    const output = path.join(dir, 'mixed.mp4');
    await addSound(
      binaries,
      { video, recording: await tone('bed.wav', 5, 2000), output },
      { seconds: 2, videoHasAudio: true },
      limits,
    );
    const after = await streamsOf(output);
    expect(after.audio).toHaveLength(1);
    // The recording's 2 kHz is there, and quieter than the clip's own 440 Hz.
    const band = async (filter: string) => {
      const { stderr } = await run(binaries.ffmpeg, [
        ...['-hide_banner', '-nostats', '-i', output, '-vn', '-af', `atrim=0.5:1.5,${filter},volumedetect`],
        ...['-f', 'null', '-'],
      ]);
      return Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)?.[1]);
    };
    const own = await band('lowpass=f=800,lowpass=f=800');
    const bed = await band('highpass=f=1500,highpass=f=1500');
    expect(bed).toBeGreaterThan(-40);
    expect(own - bed).toBeGreaterThan(6);
  });
});
