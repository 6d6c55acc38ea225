/** Spec section 9: the celebration's chime, C major up to the octave, one note every 0.2 s. */
export const CHIME_NOTES_HZ = [261.63, 329.63, 392, 523.25] as const;
export const CHIME_STEP_S = 0.2;
const NOTE_LENGTH_S = 0.45;
const PEAK_GAIN = 0.18;

type AudioContextClass = typeof AudioContext;

/** Plays the chime through Web Audio; silently nothing where the browser has none. */
export function playChime(): void {
  const Context: AudioContextClass | undefined =
    window.AudioContext ??
    (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;
  if (!Context) return;
  let context: AudioContext;
  try {
    context = new Context();
  } catch (err) {
    console.warn("No audio for the Inbox Zero chime", err);
    return;
  }
  void context.resume().catch(() => undefined);
  const start = context.currentTime + 0.02;
  CHIME_NOTES_HZ.forEach((frequency, i) => {
    const at = start + i * CHIME_STEP_S;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = "sine";
    oscillator.frequency.setValueAtTime(frequency, at);
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(PEAK_GAIN, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + NOTE_LENGTH_S);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + NOTE_LENGTH_S + 0.05);
  });
  const total = (CHIME_NOTES_HZ.length - 1) * CHIME_STEP_S + NOTE_LENGTH_S + 0.3;
  setTimeout(() => void context.close().catch(() => undefined), total * 1000);
}
