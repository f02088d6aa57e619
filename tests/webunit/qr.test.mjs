// web/js/qr.js: the QR codes it makes read back as the text they were
// made of (decoded by jsQR, an independent decoder, from the picture
// drawQr paints), at every version it makes and with every mask; the
// version is the smallest that holds the text; the format and version
// information, the Reed–Solomon codewords and the function patterns are
// those of the standard; a text too long is refused in words.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import jsQR from 'jsqr';

import {
	qrMatrix, qrCapacity, qrSide, drawQr, formatBits, versionBits, reedSolomon, penaltyOf, QR_MAX_VERSION, QR_QUIET,
} from '../../web/js/qr.js';

/**
 * A canvas 2D context that paints into RGBA pixels: what drawQr needs of
 * one (fillStyle '#fff' or '#000', fillRect).
 */
function pixelContext(side) {
	const data = new Uint8ClampedArray(side * side * 4);
	return {
		data,
		fillStyle: '#000',
		fillRect(left, top, width, height) {
			const value = this.fillStyle === '#fff' ? 255 : 0;
			for (let y = top; y < top + height; y++) {
				for (let x = left; x < left + width; x++) {
					const at = (y * side + x) * 4;
					data[at] = data[at + 1] = data[at + 2] = value;
					data[at + 3] = 255;
				}
			}
		},
	};
}

/** The text jsQR reads from matrix drawn by drawQr at scale, or null when it reads nothing. */
function decode(matrix, scale = 4) {
	const side = qrSide(matrix, scale);
	const context = pixelContext(side);
	drawQr(context, matrix, scale);
	const read = jsQR(context.data, side, side, { inversionAttempts: 'dontInvert' });
	return read ? { text: read.data, bytes: read.binaryData, version: read.version } : null;
}

/** A string of length characters (code points) of alphabet, the same every run. */
function textOf(length, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_/:#.') {
	const letters = Array.from(alphabet);
	let seed = length * 7919 + letters.length;
	let out = '';
	for (let i = 0; i < length; i++) {
		seed = (seed * 1103515245 + 12345) % 2147483648;
		out += letters[seed % letters.length];
	}
	return out;
}

const INVITE = 'http://localhost:8080/#invite/AbCdEfGhIjKl';

describe('a QR code', () => {
	it('reads back as the invite link it was made of, with every mask', () => {
		for (let mask = 0; mask < 8; mask++) {
			const matrix = qrMatrix(INVITE, { mask });
			assert.equal(matrix.mask, mask);
			assert.equal(decode(matrix)?.text, INVITE, `expected mask ${mask} to decode`);
		}
		assert.equal(decode(qrMatrix(INVITE))?.text, INVITE);
	});

	it('reads back as short, long and typical texts, at the smallest version that holds each', () => {
		const texts = ['a', 'hi', 'Gomoku', INVITE, 'https://gomoku.example.org:8443/#invite/Ps54FDsXqUOr',
			'http://192.168.100.200:8080/#invite/-_-_-_-_-_-_'];
		for (let length = 1; length <= qrCapacity(QR_MAX_VERSION); length += 13)
			texts.push(textOf(length));
		for (const text of texts) {
			const matrix = qrMatrix(text);
			const bytes = Buffer.byteLength(text);
			assert.ok(bytes <= qrCapacity(matrix.version), `expected "${text}" to fit its version ${matrix.version}`);
			if (matrix.version > 1)
				assert.ok(bytes > qrCapacity(matrix.version - 1), `expected "${text}" in the smallest version`);
			assert.equal(matrix.size, 17 + 4 * matrix.version);
			const read = decode(matrix);
			assert.equal(read?.text, text, `expected ${bytes} bytes in version ${matrix.version} to decode`);
			assert.equal(read.version, matrix.version);
		}
	});

	it('fills every version up to its last byte, and every version decodes', () => {
		for (let version = 1; version <= QR_MAX_VERSION; version++) {
			for (const length of [qrCapacity(version - 1 || 1) + (version > 1 ? 1 : 0), qrCapacity(version)]) {
				const text = textOf(length);
				const matrix = qrMatrix(text);
				assert.equal(matrix.version, version, `expected ${length} bytes in version ${version}`);
				assert.equal(decode(matrix)?.text, text, `expected version ${version} full to ${length} bytes to decode`);
			}
		}
	});

	it('holds at level M the bytes the standard says, version by version', () => {
		assert.deepEqual(Array.from({ length: QR_MAX_VERSION }, (_, i) => qrCapacity(i + 1)),
			[14, 26, 42, 62, 84, 106, 122, 152, 180, 213]);
	});

	it('carries non-ASCII text as UTF-8', () => {
		for (const text of ['五子棋', '来下一盘五子棋吧！http://localhost:8080/#invite/AbCdEfGhIjKl', 'Ünïcödé ✓ 🀄 emoji',
			textOf(60, '五子棋黑白棋盘胜负和'), textOf(53, 'é✓🀄')]) {
			const matrix = qrMatrix(text);
			const read = decode(matrix);
			assert.equal(read?.text, text, `expected "${text}" to decode`);
			assert.deepEqual(Array.from(read.bytes), Array.from(Buffer.from(text, 'utf8')), 'expected its UTF-8 bytes');
		}
	});

	it('refuses a text too long for version 10 with a clear error', () => {
		const longest = textOf(qrCapacity(QR_MAX_VERSION));
		assert.equal(qrMatrix(longest).version, QR_MAX_VERSION);
		assert.throws(() => qrMatrix(`${longest}x`), {
			name: 'RangeError',
			message: `qr: the text is ${qrCapacity(QR_MAX_VERSION) + 1} bytes of UTF-8; at most 213 fit`,
		});
		assert.throws(() => qrMatrix('五'.repeat(72)), /the text is 216 bytes of UTF-8; at most 213 fit/);
		assert.throws(() => qrMatrix('a', { mask: 8 }), /mask 8 is not one of 0 to 7/);
	});

	it('names level M and its mask in the format bits of the standard\'s table', () => {
		// ISO/IEC 18004 table C.1, the rows of level M, masks 0 to 7.
		const table = ['101010000010010', '101000100100101', '101111001111100', '101101101001011',
			'100010111111001', '100000011001110', '100111110010111', '100101010100000'];
		assert.deepEqual(table.map((_, mask) => formatBits(mask).toString(2).padStart(15, '0')), table);
	});

	it('names versions 7 to 10 in the version bits of the standard\'s table', () => {
		assert.deepEqual([7, 8, 9, 10].map(versionBits), [0x07c94, 0x085bc, 0x09a99, 0x0a4d3]);
	});

	it('computes the Reed–Solomon codewords of the standard\'s worked example', () => {
		// "HELLO WORLD" at 1-M: its 16 data codewords and their 10 EC codewords.
		const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
		assert.deepEqual(reedSolomon(data, 10), [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]);
	});

	it('has the finder, timing and format modules where the standard puts them', () => {
		const matrix = qrMatrix(INVITE);
		const { rows, size } = matrix;
		const finder = ['1111111', '1000001', '1011101', '1011101', '1011101', '1000001', '1111111'];
		for (const [left, top] of [[0, 0], [size - 7, 0], [0, size - 7]]) {
			const seen = finder.map((_, dy) => rows[top + dy].slice(left, left + 7).map(Number).join(''));
			assert.deepEqual(seen, finder, `expected a finder at ${left},${top}`);
		}
		for (let i = 8; i < size - 8; i++) {
			assert.equal(rows[6][i], i % 2 === 0, `expected the timing row at ${i}`);
			assert.equal(rows[i][6], i % 2 === 0, `expected the timing column at ${i}`);
		}
		assert.equal(rows[size - 8][8], true, 'expected the dark module');
		// The format bits, first copy: row 8 from the left (bits 14 to 9), then up column 8.
		const bits = formatBits(matrix.mask);
		const bit = (i) => Boolean((bits >>> i) & 1);
		for (let i = 0; i <= 5; i++) {
			assert.equal(rows[8][i], bit(14 - i));
			assert.equal(rows[i][8], bit(i));
		}
		// Second copy: row 8 at the right (bits 7 to 0), column 8 at the bottom (bits 8 to 14).
		for (let i = 0; i <= 7; i++)
			assert.equal(rows[8][size - 1 - i], bit(i));
		for (let i = 8; i <= 14; i++)
			assert.equal(rows[size - 15 + i][8], bit(i));
	});

	it('picks the mask with the lowest penalty', () => {
		for (const text of [INVITE, 'a', textOf(100)]) {
			const penalty = (mask) => {
				const { rows, size } = qrMatrix(text, { mask });
				return penaltyOf({ size, dark: Uint8Array.from(rows.flat(), Number) });
			};
			const penalties = Array.from({ length: 8 }, (_, mask) => penalty(mask));
			assert.equal(penalty(qrMatrix(text).mask), Math.min(...penalties), `expected the best of ${penalties}`);
		}
	});

	it('is drawn with a light quiet zone of four modules round it', () => {
		const matrix = qrMatrix(INVITE);
		const scale = 3;
		const side = qrSide(matrix, scale);
		assert.equal(side, (matrix.size + 2 * QR_QUIET) * scale);
		const context = pixelContext(side);
		drawQr(context, matrix, scale);
		const dark = (x, y) => context.data[(y * side + x) * 4] === 0;
		for (let i = 0; i < side; i++) {
			for (const edge of [0, QR_QUIET * scale - 1, side - QR_QUIET * scale, side - 1]) {
				assert.equal(dark(i, edge), false);
				assert.equal(dark(edge, i), false);
			}
		}
		assert.equal(dark(QR_QUIET * scale, QR_QUIET * scale), true, 'expected the finder\'s corner dark');
	});
});
