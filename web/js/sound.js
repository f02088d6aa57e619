// Sounds made with the Web Audio API: no audio files. The AudioContext is
// created on the first user gesture (browsers keep a context made earlier
// silent), and the mute switch is remembered by the caller.

/** A short envelope: silence, attack to peak, exponential fade to zero. */
function envelope(gain, start, peak, attack, decay) {
	gain.gain.setValueAtTime(0.0001, start);
	gain.gain.exponentialRampToValueAtTime(peak, start + attack);
	gain.gain.exponentialRampToValueAtTime(0.0001, start + attack + decay);
}

/** One tone of frequency Hz from start for decay seconds. */
function tone(context, out, { frequency, start, peak = 0.18, attack = 0.01, decay = 0.25, type = 'sine' }) {
	const osc = context.createOscillator();
	const gain = context.createGain();
	osc.type = type;
	osc.frequency.setValueAtTime(frequency, start);
	envelope(gain, start, peak, attack, decay);
	osc.connect(gain).connect(out);
	osc.start(start);
	osc.stop(start + attack + decay + 0.05);
}

/** A stone on wood: a filtered click of noise over a short low knock. */
function stone(context, out, start) {
	const length = Math.floor(context.sampleRate * 0.05);
	const buffer = context.createBuffer(1, length, context.sampleRate);
	const samples = buffer.getChannelData(0);
	let seed = 12345; // the same click every time
	for (let i = 0; i < length; i++) {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		samples[i] = ((seed / 0x7fffffff) * 2 - 1) * Math.pow(1 - i / length, 4);
	}
	const noise = context.createBufferSource();
	noise.buffer = buffer;
	const band = context.createBiquadFilter();
	band.type = 'bandpass';
	band.frequency.value = 2400;
	band.Q.value = 1.2;
	const gain = context.createGain();
	gain.gain.value = 0.9;
	noise.connect(band).connect(gain).connect(out);
	noise.start(start);
	tone(context, out, { frequency: 190, start, peak: 0.35, attack: 0.003, decay: 0.09, type: 'triangle' });
}

const NOTES = { C4: 261.63, Eb4: 311.13, G4: 392.0, A4: 440.0, C5: 523.25, E5: 659.25, G5: 783.99, A5: 880.0, C6: 1046.5 };

/** Each sound: what to play from time start on context into out. */
const SOUNDS = {
	stone,
	// A stone lifted off the board: a softer, higher knock sliding down.
	undo(context, out, start) {
		tone(context, out, { frequency: NOTES.A5, start, peak: 0.08, attack: 0.004, decay: 0.07, type: 'triangle' });
		tone(context, out, { frequency: NOTES.E5, start: start + 0.06, peak: 0.06, attack: 0.004, decay: 0.1, type: 'triangle' });
	},
	turn(context, out, start) {
		tone(context, out, { frequency: NOTES.E5, start: start + 0.12, peak: 0.07, decay: 0.2 });
		tone(context, out, { frequency: NOTES.A5, start: start + 0.22, peak: 0.07, decay: 0.3 });
	},
	win(context, out, start) {
		[NOTES.C5, NOTES.E5, NOTES.G5, NOTES.C6].forEach((frequency, i) =>
			tone(context, out, { frequency, start: start + 0.25 + i * 0.11, peak: 0.13, decay: i === 3 ? 0.7 : 0.25, type: 'triangle' }));
	},
	loss(context, out, start) {
		[NOTES.G4, NOTES.Eb4, NOTES.C4].forEach((frequency, i) =>
			tone(context, out, { frequency, start: start + 0.25 + i * 0.18, peak: 0.12, decay: i === 2 ? 0.8 : 0.3 }));
	},
	// A clock's last seconds: a short, dry tick.
	tick(context, out, start) {
		tone(context, out, { frequency: 1760, start, peak: 0.09, attack: 0.002, decay: 0.03, type: 'square' });
	},
	// The opponent's emote: a soft pop.
	emote(context, out, start) {
		tone(context, out, { frequency: NOTES.C5, start, peak: 0.08, attack: 0.005, decay: 0.08 });
		tone(context, out, { frequency: NOTES.G5, start: start + 0.07, peak: 0.08, attack: 0.005, decay: 0.14 });
	},
	left(context, out, start) {
		tone(context, out, { frequency: NOTES.A4, start: start + 0.05, peak: 0.1, decay: 0.25, type: 'triangle' });
		tone(context, out, { frequency: NOTES.E5 / 2, start: start + 0.25, peak: 0.1, decay: 0.45, type: 'triangle' });
	},
};

/**
 * The page's sound player. unlock() must be called from a user gesture
 * (it creates or resumes the AudioContext); play(name) is silent until
 * then, and while muted.
 */
export function createSound({ muted = false } = {}) {
	let context = null;
	let master = null;
	let isMuted = muted;

	return {
		unlock() {
			if (!context) {
				const AudioContextClass = globalThis.AudioContext || globalThis.webkitAudioContext;
				if (!AudioContextClass)
					return;
				try {
					context = new AudioContextClass();
				} catch {
					return; // no audio on this device: stay silent
				}
				master = context.createGain();
				master.gain.value = 0.8;
				master.connect(context.destination);
			}
			if (context.state === 'suspended')
				context.resume().catch(() => {});
		},
		play(name) {
			if (isMuted || !context || context.state !== 'running' || !SOUNDS[name])
				return;
			SOUNDS[name](context, master, context.currentTime + 0.01);
		},
		get muted() {
			return isMuted;
		},
		setMuted(value) {
			isMuted = Boolean(value);
		},
	};
}
