// Drawing the board on its <canvas>: wood, grid, star points, coordinates,
// stones, the last-move mark, the winning five, the preview stone and the
// keyboard cursor. Everything is drawn in CSS pixels on a canvas of
// side × devicePixelRatio device pixels, with the lines snapped to device
// pixels so they stay crisp on HiDPI screens. Where things go comes from
// layout.js, the same module the pointer and the tests use.

import { boardGeometry, cellCenter, starPoints } from './layout.js';
import { columnLabel, rowLabel } from './text.js';

const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "PingFang SC", sans-serif';
const LINE_COLOUR = 'rgba(58, 34, 12, 0.86)';
const LABEL_COLOUR = 'rgba(74, 44, 16, 0.78)';
const LAST_MOVE_COLOUR = '#e4472c';
/** Renju: the cross on a point black may not play. */
const FORBIDDEN_COLOUR = '#c81e1e';

/** A small seeded random generator (mulberry32): the same grain each time. */
function seededRandom(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** The wood under the grid, drawn once per canvas size. */
function paintWood(width, ratio) {
	const wood = document.createElement('canvas');
	wood.width = width;
	wood.height = width;
	const ctx = wood.getContext('2d');
	const side = width / ratio;
	ctx.scale(ratio, ratio);

	const base = ctx.createLinearGradient(0, 0, side, side * 0.35);
	base.addColorStop(0, '#e9c27b');
	base.addColorStop(0.35, '#deb064');
	base.addColorStop(0.65, '#e6bd74');
	base.addColorStop(1, '#d7a55a');
	ctx.fillStyle = base;
	ctx.fillRect(0, 0, side, side);

	// Grain: long, slightly wavy strokes across the board.
	const random = seededRandom(0x5eed);
	const strokes = Math.round(side / 2.2);
	for (let i = 0; i < strokes; i++) {
		const y0 = random() * side * 1.2 - side * 0.1;
		const amplitude = 2 + random() * side * 0.012;
		const wavelength = side * (0.25 + random() * 0.5);
		const phase = random() * Math.PI * 2;
		const dark = random() < 0.7;
		ctx.strokeStyle = dark
			? `rgba(122, 70, 22, ${0.025 + random() * 0.06})`
			: `rgba(255, 236, 190, ${0.03 + random() * 0.06})`;
		ctx.lineWidth = 0.4 + random() * (random() < 0.1 ? 3.5 : 1.3);
		ctx.beginPath();
		for (let x = -10; x <= side + 10; x += 8) {
			const y = y0 + amplitude * Math.sin(phase + (x / wavelength) * Math.PI * 2) + x * 0.06;
			if (x === -10)
				ctx.moveTo(x, y);
			else
				ctx.lineTo(x, y);
		}
		ctx.stroke();
	}

	// A soft light in the middle, darker edges.
	const light = ctx.createRadialGradient(side * 0.45, side * 0.4, side * 0.1, side / 2, side / 2, side * 0.75);
	light.addColorStop(0, 'rgba(255, 240, 200, 0.16)');
	light.addColorStop(0.6, 'rgba(255, 240, 200, 0)');
	light.addColorStop(1, 'rgba(96, 52, 12, 0.22)');
	ctx.fillStyle = light;
	ctx.fillRect(0, 0, side, side);
	return wood;
}

/**
 * A renderer for canvas. resize(side, ratio) sets its size (CSS pixels)
 * and pixel ratio; draw(view) paints a view:
 *   size, cells ('' | 'front' | 'back', row-major), lastMove {x, y},
 *   line [{x, y}] (the winning five), preview {x, y, role},
 *   cursor {x, y} (the keyboard cursor), numbers [{x, y, number, role}]
 *   (the move numbers written on the stones, when asked for), forbidden
 *   [{x, y}] (renju: the points black may not play, a small red cross).
 */
export function createBoardRenderer(canvas) {
	const ctx = canvas.getContext('2d');
	let side = 0;
	let ratio = 1;
	let wood = null;

	// A coordinate snapped to the middle of a device pixel line of
	// widthPx device pixels, back in CSS pixels.
	function snap(value, widthPx) {
		const offset = widthPx % 2 ? 0.5 : 0;
		return (Math.round(value * ratio - offset) + offset) / ratio;
	}

	function drawGrid(geometry) {
		const { size, origin, step } = geometry;
		const far = origin + (size - 1) * step;
		const thin = Math.max(1, Math.round(ratio));
		const thick = Math.max(2, Math.round(2 * ratio));
		ctx.strokeStyle = LINE_COLOUR;
		ctx.lineCap = 'square';
		for (let i = 0; i < size; i++) {
			const edge = i === 0 || i === size - 1;
			const widthPx = edge ? thick : thin;
			const at = snap(origin + i * step, widthPx);
			ctx.lineWidth = widthPx / ratio;
			ctx.beginPath();
			ctx.moveTo(snap(origin, thick), at);
			ctx.lineTo(snap(far, thick), at);
			ctx.moveTo(at, snap(origin, thick));
			ctx.lineTo(at, snap(far, thick));
			ctx.stroke();
		}
		ctx.fillStyle = LINE_COLOUR;
		for (const { x, y } of starPoints(size)) {
			const { px, py } = cellCenter(geometry, x, y);
			ctx.beginPath();
			ctx.arc(snap(px, thin), snap(py, thin), Math.max(2, step * 0.1), 0, Math.PI * 2);
			ctx.fill();
		}
	}

	function drawLabels(geometry) {
		const { size, origin, step } = geometry;
		const fontPx = Math.max(8, Math.min(16, step * 0.36));
		const gap = step * 0.7; // from the grid's edge to a label's middle
		const far = origin + (size - 1) * step;
		ctx.font = `600 ${fontPx.toFixed(1)}px ${FONT_FAMILY}`;
		ctx.fillStyle = LABEL_COLOUR;
		ctx.textAlign = 'center';
		ctx.textBaseline = 'middle';
		for (let i = 0; i < size; i++) {
			const at = origin + i * step;
			const letter = columnLabel(i);
			const number = rowLabel(i, size);
			ctx.fillText(letter, at, origin - gap);
			ctx.fillText(letter, at, far + gap);
			ctx.fillText(number, origin - gap, at);
			ctx.fillText(number, far + gap, at);
		}
	}

	function drawStone(geometry, x, y, role, alpha = 1) {
		const { px, py } = cellCenter(geometry, x, y);
		const r = geometry.radius;
		ctx.save();
		ctx.globalAlpha = alpha;
		if (alpha === 1) {
			// Shadows are in device pixels: they ignore the transform.
			ctx.shadowColor = 'rgba(40, 20, 0, 0.45)';
			ctx.shadowBlur = r * 0.35 * ratio;
			ctx.shadowOffsetX = r * 0.1 * ratio;
			ctx.shadowOffsetY = r * 0.16 * ratio;
		}
		const gradient = ctx.createRadialGradient(px - r * 0.35, py - r * 0.4, r * 0.05, px, py, r);
		if (role === 'front') {
			gradient.addColorStop(0, '#8a8a8a');
			gradient.addColorStop(0.18, '#4a4a4a');
			gradient.addColorStop(0.6, '#1c1c1c');
			gradient.addColorStop(1, '#050505');
		} else {
			gradient.addColorStop(0, '#ffffff');
			gradient.addColorStop(0.4, '#f4f2ec');
			gradient.addColorStop(0.85, '#d9d4c8');
			gradient.addColorStop(1, '#bdb6a7');
		}
		ctx.fillStyle = gradient;
		ctx.beginPath();
		ctx.arc(px, py, r, 0, Math.PI * 2);
		ctx.fill();
		ctx.restore();
	}

	function drawLastMove(geometry, move) {
		const { px, py } = cellCenter(geometry, move.x, move.y);
		ctx.fillStyle = LAST_MOVE_COLOUR;
		ctx.beginPath();
		ctx.arc(px, py, geometry.radius * 0.24, 0, Math.PI * 2);
		ctx.fill();
	}

	function drawFive(geometry, line) {
		const r = geometry.radius;
		const first = cellCenter(geometry, line[0].x, line[0].y);
		const last = cellCenter(geometry, line[line.length - 1].x, line[line.length - 1].y);
		ctx.save();
		ctx.lineCap = 'round';
		ctx.strokeStyle = 'rgba(228, 71, 44, 0.75)';
		ctx.lineWidth = Math.max(2, r * 0.22);
		ctx.beginPath();
		ctx.moveTo(first.px, first.py);
		ctx.lineTo(last.px, last.py);
		ctx.stroke();
		ctx.shadowColor = 'rgba(255, 196, 40, 0.95)';
		ctx.shadowBlur = r * 0.6 * ratio;
		ctx.strokeStyle = '#ffcf3f';
		ctx.lineWidth = Math.max(2, r * 0.2);
		for (const { x, y } of line) {
			const { px, py } = cellCenter(geometry, x, y);
			ctx.beginPath();
			ctx.arc(px, py, r * 1.04, 0, Math.PI * 2);
			ctx.stroke();
		}
		ctx.restore();
	}

	function drawNumbers(geometry, numbers, lastMove) {
		const fontPx = Math.max(7, geometry.radius * (numbers.length > 99 ? 0.8 : 0.95));
		ctx.save();
		ctx.font = `700 ${fontPx.toFixed(1)}px ${FONT_FAMILY}`;
		ctx.textAlign = 'center';
		ctx.textBaseline = 'middle';
		for (const { x, y, number, role } of numbers) {
			const { px, py } = cellCenter(geometry, x, y);
			const last = lastMove && lastMove.x === x && lastMove.y === y;
			// The last move's number in red, light enough to read on black.
			if (last)
				ctx.fillStyle = role === 'front' ? '#ff8a6e' : LAST_MOVE_COLOUR;
			else
				ctx.fillStyle = role === 'front' ? '#f4eadc' : '#1c1611';
			ctx.fillText(String(number), px, py + fontPx * 0.05);
		}
		ctx.restore();
	}

	function drawForbidden(geometry, points) {
		const arm = geometry.radius * 0.34;
		ctx.save();
		ctx.strokeStyle = FORBIDDEN_COLOUR;
		ctx.lineWidth = Math.max(1.5, geometry.radius * 0.16);
		ctx.lineCap = 'round';
		ctx.beginPath();
		for (const { x, y } of points) {
			const { px, py } = cellCenter(geometry, x, y);
			ctx.moveTo(px - arm, py - arm);
			ctx.lineTo(px + arm, py + arm);
			ctx.moveTo(px + arm, py - arm);
			ctx.lineTo(px - arm, py + arm);
		}
		ctx.stroke();
		ctx.restore();
	}

	function drawCursor(geometry, cursor) {
		const { px, py } = cellCenter(geometry, cursor.x, cursor.y);
		const half = geometry.step * 0.5;
		const arm = geometry.step * 0.2;
		ctx.save();
		ctx.strokeStyle = '#1d4ed8';
		ctx.lineWidth = Math.max(2, Math.round(2 * ratio)) / ratio;
		ctx.lineCap = 'round';
		ctx.beginPath();
		for (const [sx, sy] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
			const cx = px + sx * half;
			const cy = py + sy * half;
			ctx.moveTo(cx - sx * arm, cy);
			ctx.lineTo(cx, cy);
			ctx.lineTo(cx, cy - sy * arm);
		}
		ctx.stroke();
		ctx.restore();
	}

	return {
		/** Sets the canvas to side CSS pixels square at pixel ratio. */
		resize(newSide, newRatio) {
			const pixels = Math.max(1, Math.round(newSide * newRatio));
			if (newSide === side && newRatio === ratio && canvas.width === pixels)
				return false;
			side = newSide;
			ratio = newRatio;
			canvas.width = pixels;
			canvas.height = pixels;
			canvas.style.width = `${side}px`;
			canvas.style.height = `${side}px`;
			wood = null;
			return true;
		},

		/** Paints view (see above) over the whole canvas. */
		draw(view) {
			if (!side)
				return;
			const geometry = boardGeometry(side, view.size);
			if (!wood)
				wood = paintWood(canvas.width, ratio);
			ctx.setTransform(1, 0, 0, 1, 0, 0);
			ctx.clearRect(0, 0, canvas.width, canvas.height);
			ctx.drawImage(wood, 0, 0);
			ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
			drawGrid(geometry);
			drawLabels(geometry);
			view.cells.forEach((cell, index) => {
				if (cell)
					drawStone(geometry, index % view.size, Math.floor(index / view.size), cell);
			});
			if (view.line && view.line.length)
				drawFive(geometry, view.line);
			if (view.numbers && view.numbers.length)
				drawNumbers(geometry, view.numbers, view.lastMove);
			else if (view.lastMove)
				drawLastMove(geometry, view.lastMove);
			if (view.forbidden && view.forbidden.length)
				drawForbidden(geometry, view.forbidden);
			if (view.preview)
				drawStone(geometry, view.preview.x, view.preview.y, view.preview.role, 0.5);
			if (view.cursor)
				drawCursor(geometry, view.cursor);
		},
	};
}
