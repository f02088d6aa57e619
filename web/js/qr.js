// A QR code of a short text (the invite link), made here so the page
// needs nothing from outside: the text's UTF-8 bytes in byte mode, error
// correction level M (15 % of the symbol can be lost), the smallest of
// versions 1 to 10 that holds them (up to 213 bytes), Reed–Solomon error
// correction over GF(256), and the mask of the eight whose penalty
// (ISO/IEC 18004 7.8.3) is lowest, with the format and version
// information that name them. No DOM: qrMatrix() gives the modules,
// drawQr() paints them on the canvas 2D context it is given, with the
// quiet zone round them; node --test reads them back with a QR decoder.

/** The largest version made (qrCapacity() says how many bytes each holds). */
export const QR_MAX_VERSION = 10;

/**
 * Level M's error correction blocks per version (index 1 to 10): the EC
 * codewords of each block, and the groups of blocks as [count, data
 * codewords of each].
 */
const BLOCKS_M = [
	null,
	{ ec: 10, groups: [[1, 16]] },
	{ ec: 16, groups: [[1, 28]] },
	{ ec: 26, groups: [[1, 44]] },
	{ ec: 18, groups: [[2, 32]] },
	{ ec: 24, groups: [[2, 43]] },
	{ ec: 16, groups: [[4, 27]] },
	{ ec: 18, groups: [[4, 31]] },
	{ ec: 22, groups: [[2, 38], [2, 39]] },
	{ ec: 22, groups: [[3, 36], [2, 37]] },
	{ ec: 26, groups: [[4, 43], [1, 44]] },
];

/** The centres of the alignment patterns, per version, on both axes. */
const ALIGNMENT = [
	null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34],
	[6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
];

const EC_LEVEL_M = 0b00; // the format information's two bits for level M
const FORMAT_MASK = 0x5412; // XORed over the format information
const FORMAT_GENERATOR = 0x537; // BCH (15, 5)
const VERSION_GENERATOR = 0x1f25; // Golay (18, 6)
const BYTE_MODE = 0b0100;
const PAD_BYTES = [0xec, 0x11];

// ---- GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 ----

const EXP = new Uint8Array(512); // α^i, doubled so a sum of two logs needs no modulo
const LOG = new Uint8Array(256); // log_α(v), v > 0
{
	let value = 1;
	for (let i = 0; i < 255; i++) {
		EXP[i] = value;
		LOG[value] = i;
		value <<= 1;
		if (value & 0x100)
			value ^= 0x11d;
	}
	for (let i = 255; i < 512; i++)
		EXP[i] = EXP[i - 255];
}

function gfMultiply(a, b) {
	return a && b ? EXP[LOG[a] + LOG[b]] : 0;
}

/** The generator polynomial (x - α^0)…(x - α^(degree-1)), highest term first (its 1 left out). */
function generatorPolynomial(degree) {
	let poly = [1];
	for (let i = 0; i < degree; i++) {
		const next = new Array(poly.length + 1).fill(0);
		for (let j = 0; j < poly.length; j++) {
			next[j] ^= poly[j];
			next[j + 1] ^= gfMultiply(poly[j], EXP[i]);
		}
		poly = next;
	}
	return poly.slice(1);
}

/**
 * The ecLength Reed–Solomon codewords of data (bytes): the remainder of
 * data·x^ecLength divided by the generator polynomial.
 */
export function reedSolomon(data, ecLength) {
	const generator = generatorPolynomial(ecLength);
	const remainder = new Array(ecLength).fill(0);
	for (const byte of data) {
		const factor = byte ^ remainder.shift();
		remainder.push(0);
		for (let i = 0; i < ecLength; i++)
			remainder[i] ^= gfMultiply(generator[i], factor);
	}
	return remainder;
}

// ---- versions and codewords ----

/** The data codewords of version at level M. */
function dataCodewords(version) {
	return BLOCKS_M[version].groups.reduce((sum, [count, length]) => sum + count * length, 0);
}

/** The bits of byte mode's character count at version. */
function countBits(version) {
	return version < 10 ? 8 : 16;
}

/** How many bytes version holds at level M in byte mode. */
export function qrCapacity(version) {
	return Math.floor((dataCodewords(version) * 8 - 4 - countBits(version)) / 8);
}

/** The smallest version that holds length bytes; throws past QR_MAX_VERSION. */
function versionFor(length) {
	for (let version = 1; version <= QR_MAX_VERSION; version++) {
		if (length <= qrCapacity(version))
			return version;
	}
	throw new RangeError(`qr: the text is ${length} bytes of UTF-8; at most ${qrCapacity(QR_MAX_VERSION)} fit`);
}

/** The data codewords of bytes at version: mode, count, bytes, terminator, padding. */
function encodeData(bytes, version) {
	const bits = [];
	const put = (value, length) => {
		for (let i = length - 1; i >= 0; i--)
			bits.push((value >>> i) & 1);
	};
	put(BYTE_MODE, 4);
	put(bytes.length, countBits(version));
	for (const byte of bytes)
		put(byte, 8);
	const capacity = dataCodewords(version) * 8;
	put(0, Math.min(4, capacity - bits.length)); // the terminator, or what room is left of it
	put(0, (8 - (bits.length % 8)) % 8);
	const codewords = [];
	for (let i = 0; i < bits.length; i += 8)
		codewords.push(bits.slice(i, i + 8).reduce((byte, bit) => (byte << 1) | bit, 0));
	for (let i = 0; codewords.length < dataCodewords(version); i++)
		codewords.push(PAD_BYTES[i % 2]);
	return codewords;
}

/**
 * The codewords in the order they are placed: the data split in blocks,
 * each block's EC computed, then both interleaved block by block.
 */
function interleave(data, version) {
	const { ec, groups } = BLOCKS_M[version];
	const blocks = [];
	let offset = 0;
	for (const [count, length] of groups) {
		for (let i = 0; i < count; i++) {
			const block = data.slice(offset, offset + length);
			offset += length;
			blocks.push({ data: block, ec: reedSolomon(block, ec) });
		}
	}
	const out = [];
	const longest = Math.max(...blocks.map((block) => block.data.length));
	for (let i = 0; i < longest; i++) {
		for (const block of blocks) {
			if (i < block.data.length)
				out.push(block.data[i]);
		}
	}
	for (let i = 0; i < ec; i++) {
		for (const block of blocks)
			out.push(block.ec[i]);
	}
	return out;
}

// ---- the matrix ----

/** A size × size grid: dark modules, and which modules are function patterns. */
function newGrid(size) {
	return { size, dark: new Uint8Array(size * size), reserved: new Uint8Array(size * size) };
}

/** Sets a function module (x column, y row), reserved from data and masks. */
function setFunction(grid, x, y, dark) {
	grid.dark[y * grid.size + x] = dark ? 1 : 0;
	grid.reserved[y * grid.size + x] = 1;
}

/** A finder pattern with its light separator, its top-left module at (left, top). */
function drawFinder(grid, left, top) {
	for (let dy = -1; dy <= 7; dy++) {
		for (let dx = -1; dx <= 7; dx++) {
			const x = left + dx;
			const y = top + dy;
			if (x < 0 || y < 0 || x >= grid.size || y >= grid.size)
				continue;
			const ring = Math.max(Math.abs(dx - 3), Math.abs(dy - 3)); // 0 centre … 4 separator
			setFunction(grid, x, y, ring !== 2 && ring !== 4);
		}
	}
}

/** An alignment pattern centred on (cx, cy). */
function drawAlignment(grid, cx, cy) {
	for (let dy = -2; dy <= 2; dy++) {
		for (let dx = -2; dx <= 2; dx++)
			setFunction(grid, cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
	}
}

/** The remainder of value·x^(degree of generator) divided by generator, over GF(2). */
function bchRemainder(value, generator) {
	const degree = 31 - Math.clz32(generator);
	let remainder = value << degree;
	for (let bit = 31 - Math.clz32(remainder); bit >= degree; bit--) {
		if (remainder & (1 << bit))
			remainder ^= generator << (bit - degree);
	}
	return remainder;
}

/** The 15 bits of format information for level M and mask. */
export function formatBits(mask) {
	const data = (EC_LEVEL_M << 3) | mask;
	return ((data << 10) | bchRemainder(data, FORMAT_GENERATOR)) ^ FORMAT_MASK;
}

/** The 18 bits of version information (versions 7 and up). */
export function versionBits(version) {
	return (version << 12) | bchRemainder(version, VERSION_GENERATOR);
}

/**
 * The format information's two copies: bit 14 (the first) nearest the
 * top-left corner's left edge and the bottom-left corner's bottom, bit 0
 * at the top of column 8 and at the right end of row 8; then the dark
 * module beside the bottom-left copy.
 */
function drawFormat(grid, mask) {
	const bits = formatBits(mask);
	const bit = (i) => (bits >>> i) & 1;
	const last = grid.size - 1;
	for (let i = 0; i <= 5; i++)
		setFunction(grid, 8, i, bit(i));
	setFunction(grid, 8, 7, bit(6));
	setFunction(grid, 8, 8, bit(7));
	setFunction(grid, 7, 8, bit(8));
	for (let i = 9; i <= 14; i++)
		setFunction(grid, 14 - i, 8, bit(i));
	for (let i = 0; i <= 7; i++)
		setFunction(grid, last - i, 8, bit(i));
	for (let i = 8; i <= 14; i++)
		setFunction(grid, 8, grid.size - 15 + i, bit(i));
	setFunction(grid, 8, grid.size - 8, true);
}

/** The version information's two copies, 6 × 3 by the top-right and bottom-left finders. */
function drawVersion(grid, version) {
	if (version < 7)
		return;
	const bits = versionBits(version);
	for (let i = 0; i < 18; i++) {
		const dark = (bits >>> i) & 1;
		const across = grid.size - 11 + (i % 3);
		const along = Math.floor(i / 3);
		setFunction(grid, across, along, dark);
		setFunction(grid, along, across, dark);
	}
}

/** Every function pattern of version, the format information (mask 0 for now) included. */
function drawFunctionPatterns(grid, version) {
	const { size } = grid;
	for (let i = 8; i < size - 8; i++) {
		setFunction(grid, i, 6, i % 2 === 0);
		setFunction(grid, 6, i, i % 2 === 0);
	}
	drawFinder(grid, 0, 0);
	drawFinder(grid, size - 7, 0);
	drawFinder(grid, 0, size - 7);
	const centres = ALIGNMENT[version];
	const last = centres.length - 1;
	for (let i = 0; i <= last; i++) {
		for (let j = 0; j <= last; j++) {
			// Not over the finders' corners.
			if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0))
				continue;
			drawAlignment(grid, centres[i], centres[j]);
		}
	}
	drawFormat(grid, 0);
	drawVersion(grid, version);
}

/**
 * Places the codewords' bits, first bit first, in the modules that are no
 * function pattern: two columns at a time from the right, up then down,
 * the vertical timing pattern's column skipped; what is left (the
 * remainder bits) stays light.
 */
function placeCodewords(grid, codewords) {
	const { size } = grid;
	const total = codewords.length * 8;
	let index = 0;
	let upward = true;
	for (let right = size - 1; right >= 1; right -= 2) {
		if (right === 6)
			right = 5;
		for (let step = 0; step < size; step++) {
			const y = upward ? size - 1 - step : step;
			for (const x of [right, right - 1]) {
				if (grid.reserved[y * size + x])
					continue;
				const dark = index < total && ((codewords[index >>> 3] >>> (7 - (index & 7))) & 1);
				grid.dark[y * size + x] = dark ? 1 : 0;
				index++;
			}
		}
		upward = !upward;
	}
}

/** The eight masks: true where a module (column x, row y) is inverted. */
const MASKS = [
	(x, y) => (x + y) % 2 === 0,
	(x, y) => y % 2 === 0,
	(x) => x % 3 === 0,
	(x, y) => (x + y) % 3 === 0,
	(x, y) => (Math.floor(y / 2) + Math.floor(x / 3)) % 2 === 0,
	(x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
	(x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
	(x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

/** Inverts the data modules where mask says (twice undoes it). */
function applyMask(grid, mask) {
	const { size } = grid;
	for (let y = 0; y < size; y++) {
		for (let x = 0; x < size; x++) {
			if (!grid.reserved[y * size + x] && MASKS[mask](x, y))
				grid.dark[y * size + x] ^= 1;
		}
	}
}

/** The finder-like run 1:1:3:1:1 with four light modules on one side, as bits. */
const FINDER_LIKE = [0b10111010000, 0b00001011101];

/**
 * The penalty of a finished symbol, grid {size, dark} (dark: size × size
 * modules row by row, 1 for dark), by ISO/IEC 18004 7.8.3: runs of five or
 * more of one colour in a row or column (3, plus 1 per module past five),
 * 2 × 2 blocks of one colour (3 each), finder-like patterns (40 each), and
 * 10 per 5 % that the dark modules are off half.
 */
export function penaltyOf(grid) {
	const { size, dark } = grid;
	const at = (x, y) => dark[y * size + x];
	let penalty = 0;
	for (const across of [true, false]) {
		for (let line = 0; line < size; line++) {
			let run = 0;
			let colour = -1;
			let window = 0; // the last 11 modules, as bits
			for (let i = 0; i < size; i++) {
				const module = across ? at(i, line) : at(line, i);
				if (module === colour) {
					run++;
				} else {
					if (run >= 5)
						penalty += run - 2;
					colour = module;
					run = 1;
				}
				window = ((window << 1) | module) & 0x7ff;
				if (i >= 10 && FINDER_LIKE.includes(window))
					penalty += 40;
			}
			if (run >= 5)
				penalty += run - 2;
		}
	}
	for (let y = 0; y < size - 1; y++) {
		for (let x = 0; x < size - 1; x++) {
			const colour = at(x, y);
			if (at(x + 1, y) === colour && at(x, y + 1) === colour && at(x + 1, y + 1) === colour)
				penalty += 3;
		}
	}
	const darkCount = dark.reduce((sum, module) => sum + module, 0);
	const percent = (darkCount * 100) / (size * size);
	penalty += Math.floor(Math.abs(percent - 50) / 5) * 10;
	return penalty;
}

/** The UTF-8 bytes of text. */
function utf8(text) {
	return Array.from(new TextEncoder().encode(String(text)));
}

/**
 * The QR code of text (level M, byte mode, the smallest version of 1 to
 * 10 that holds its UTF-8): {version, size (modules a side), mask, rows}
 * with rows[y][x] true for a dark module; no quiet zone (drawQr adds it).
 * options.mask (0–7) forces a mask rather than the best one. Throws a
 * RangeError when the text is longer than version 10 holds.
 */
export function qrMatrix(text, { mask = null } = {}) {
	const bytes = utf8(text);
	const version = versionFor(bytes.length);
	const grid = newGrid(17 + 4 * version);
	drawFunctionPatterns(grid, version);
	placeCodewords(grid, interleave(encodeData(bytes, version), version));

	let chosen = mask;
	if (chosen === null) {
		let best = Infinity;
		for (let candidate = 0; candidate < MASKS.length; candidate++) {
			applyMask(grid, candidate);
			drawFormat(grid, candidate);
			const penalty = penaltyOf(grid);
			if (penalty < best) {
				best = penalty;
				chosen = candidate;
			}
			applyMask(grid, candidate);
		}
	} else if (!Number.isInteger(chosen) || chosen < 0 || chosen >= MASKS.length) {
		throw new RangeError(`qr: mask ${mask} is not one of 0 to 7`);
	}
	applyMask(grid, chosen);
	drawFormat(grid, chosen);

	const rows = [];
	for (let y = 0; y < grid.size; y++)
		rows.push(Array.from(grid.dark.subarray(y * grid.size, (y + 1) * grid.size), (module) => module === 1));
	return { version, size: grid.size, mask: chosen, rows };
}

/** The modules of light border a QR code needs on each side. */
export const QR_QUIET = 4;

/** The side in pixels of matrix drawn at scale pixels a module, with its quiet zone. */
export function qrSide(matrix, scale) {
	return (matrix.size + 2 * QR_QUIET) * scale;
}

/**
 * Draws matrix on a canvas 2D context from its top-left corner: a light
 * square of qrSide(matrix, scale) pixels (the quiet zone included) and
 * the dark modules, scale pixels each.
 */
export function drawQr(context, matrix, scale) {
	const side = qrSide(matrix, scale);
	context.fillStyle = '#fff';
	context.fillRect(0, 0, side, side);
	context.fillStyle = '#000';
	for (let y = 0; y < matrix.size; y++) {
		for (let x = 0; x < matrix.size; x++) {
			if (matrix.rows[y][x])
				context.fillRect((x + QR_QUIET) * scale, (y + QR_QUIET) * scale, scale, scale);
		}
	}
}
