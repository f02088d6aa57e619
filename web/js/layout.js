// Board geometry: where each intersection is on the canvas, which
// intersection a pointer is nearest, and the keyboard cursor's moves.
// Pure: CSS pixels in, CSS pixels out; no DOM, so node --test imports it
// and the browser tests compute their clicks with it.
//
// A board of side S CSS pixels and N lines: the grid is inset by PAD_STEPS
// grid steps on every side (room for the coordinates), so
//   step = S / (N - 1 + 2 * PAD_STEPS),  origin = PAD_STEPS * step,
// and intersection (x, y) is at (origin + x * step, origin + y * step) from
// the canvas's top-left corner.

export const PAD_STEPS = 0.95;
export const STONE_RADIUS_STEPS = 0.46;

/** The geometry of a square board canvas side CSS pixels wide, size lines. */
export function boardGeometry(side, size) {
	const step = side / (size - 1 + 2 * PAD_STEPS);
	return {
		side,
		size,
		step,
		origin: PAD_STEPS * step,
		radius: STONE_RADIUS_STEPS * step,
	};
}

/** The canvas point (CSS pixels) of intersection (x, y). */
export function cellCenter(geometry, x, y) {
	return {
		px: geometry.origin + x * geometry.step,
		py: geometry.origin + y * geometry.step,
	};
}

/**
 * The intersection nearest to canvas point (px, py), or null when the
 * point is off the board: more than half a step outside the grid.
 */
export function pointToCell(geometry, px, py) {
	const x = Math.round((px - geometry.origin) / geometry.step);
	const y = Math.round((py - geometry.origin) / geometry.step);
	if (!Number.isFinite(x) || !Number.isFinite(y))
		return null;
	if (x < 0 || y < 0 || x >= geometry.size || y >= geometry.size)
		return null;
	return { x: x + 0, y: y + 0 }; // + 0 turns -0 into 0
}

/**
 * The side of the largest square board that fits a box of width × height
 * CSS pixels, in whole pixels.
 */
export function fitBoardSide(width, height) {
	return Math.max(0, Math.floor(Math.min(width, height)));
}

/*
 * Zoom: a board whose points are less than MIN_STEP CSS pixels apart (a
 * 19-line board on a phone) may be shown enlarged to ZOOM_STEP, inside a
 * view of its usual size that the player pans with a finger.
 */
export const MIN_STEP = 20;
export const ZOOM_STEP = 28;

/** How much the zoom enlarges a board side pixels wide of size lines: 1, none, when its points are far enough apart. */
export function zoomFactor(side, size) {
	const { step } = boardGeometry(side, size);
	return step > 0 && step < MIN_STEP ? ZOOM_STEP / step : 1;
}

/**
 * The scroll offset of a view length pixels long over a board full pixels
 * long, that shows the board's coordinate at with margin pixels to spare:
 * scroll itself when it already does, else at centred, within the board.
 */
export function scrollToShow(scroll, length, full, at, margin) {
	if (at - margin >= scroll && at + margin <= scroll + length)
		return scroll;
	return Math.round(Math.min(Math.max(0, at - length / 2), Math.max(0, full - length)));
}

/** The star points (hoshi) of a size × size board, as {x, y}. */
export function starPoints(size) {
	if (size < 7)
		return size % 2 ? [{ x: (size - 1) / 2, y: (size - 1) / 2 }] : [];
	const edge = size >= 13 ? 3 : 2;
	const far = size - 1 - edge;
	const points = [
		{ x: edge, y: edge }, { x: far, y: edge },
		{ x: edge, y: far }, { x: far, y: far },
	];
	if (size % 2)
		points.push({ x: (size - 1) / 2, y: (size - 1) / 2 });
	return points;
}

const CURSOR_STEPS = {
	ArrowLeft: { dx: -1, dy: 0 },
	ArrowRight: { dx: 1, dy: 0 },
	ArrowUp: { dx: 0, dy: -1 },
	ArrowDown: { dx: 0, dy: 1 },
};

/** True for the keys that move the keyboard cursor. */
export function isCursorKey(key) {
	return key in CURSOR_STEPS;
}

/**
 * The keyboard cursor after key (an arrow key's KeyboardEvent.key): one
 * step that way, stopping at the edges. A cursor not shown yet (null)
 * appears in the centre first.
 */
export function moveCursor(cursor, key, size) {
	const centre = Math.floor((size - 1) / 2);
	if (!cursor)
		return { x: centre, y: centre };
	const delta = CURSOR_STEPS[key];
	if (!delta)
		return cursor;
	const clamp = (value) => Math.min(size - 1, Math.max(0, value));
	return { x: clamp(cursor.x + delta.dx), y: clamp(cursor.y + delta.dy) };
}
