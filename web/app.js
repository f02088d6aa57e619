// A minimal Gomoku client: find an opponent, draw the board, send moves.
// The server referees; this page only renders what it is told.

const canvas = document.getElementById('board');
const statusLine = document.getElementById('status');
const findButton = document.getElementById('find');
const ctx = canvas.getContext('2d');

const state = {
	socket: null,
	size: 15,
	role: null,      // 'front' or 'back' once matched
	toMove: null,    // side to move next
	cells: [],       // '' | 'front' | 'back', row-major
	over: false,
};

function uid() {
	let id = sessionStorage.getItem('gomoku-uid');
	if (!id) {
		// crypto.randomUUID() exists only on secure origins (https or
		// localhost); a LAN address over plain http has getRandomValues.
		const bytes = crypto.getRandomValues(new Uint8Array(16));
		bytes[6] = (bytes[6] & 0x0f) | 0x40;
		bytes[8] = (bytes[8] & 0x3f) | 0x80;
		const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
		id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
		sessionStorage.setItem('gomoku-uid', id);
	}
	return id;
}

function setStatus(text) {
	statusLine.textContent = text;
}

function geometry() {
	const margin = canvas.width / (state.size + 1);
	return { margin, step: (canvas.width - 2 * margin) / (state.size - 1) };
}

function draw() {
	const { margin, step } = geometry();
	ctx.fillStyle = '#dcb35c';
	ctx.fillRect(0, 0, canvas.width, canvas.height);
	ctx.strokeStyle = '#333';
	ctx.lineWidth = 1;
	for (let i = 0; i < state.size; i++) {
		const at = margin + i * step;
		ctx.beginPath();
		ctx.moveTo(margin, at);
		ctx.lineTo(canvas.width - margin, at);
		ctx.moveTo(at, margin);
		ctx.lineTo(at, canvas.height - margin);
		ctx.stroke();
	}
	state.cells.forEach((cell, i) => {
		if (!cell)
			return;
		const x = margin + (i % state.size) * step;
		const y = margin + Math.floor(i / state.size) * step;
		ctx.beginPath();
		ctx.arc(x, y, step * 0.42, 0, 2 * Math.PI);
		ctx.fillStyle = cell === 'front' ? '#111' : '#f8f8f8';
		ctx.fill();
		ctx.stroke();
	});
}

function turnText() {
	if (state.over || !state.role)
		return;
	setStatus(state.toMove === state.role ? `Your move (${colour(state.role)}).`
		: `Opponent's move (${colour(state.toMove)}).`);
}

function colour(role) {
	return role === 'front' ? 'black' : 'white';
}

function onMessage(msg) {
	switch (msg.type) {
	case 'welcome':
		state.size = msg.size;
		state.cells = new Array(msg.size * msg.size).fill('');
		draw();
		break;
	case 'waiting':
		setStatus('Waiting for an opponent…');
		break;
	case 'role':
		state.role = msg.role;
		state.toMove = 'front';
		state.over = false;
		findButton.disabled = true;
		turnText();
		break;
	case 'board':
		state.cells = msg.content;
		state.toMove = msg.role;
		draw();
		turnText();
		break;
	case 'winner':
		state.over = true;
		setStatus(msg.winner === 'draw' ? 'Draw.'
			: msg.winner === state.role ? 'You win!' : 'You lose.');
		findButton.disabled = false;
		findButton.textContent = 'Play again';
		break;
	case 'disconnect':
		state.over = true;
		setStatus('Your opponent left.');
		findButton.disabled = false;
		findButton.textContent = 'Play again';
		break;
	case 'error':
		setStatus(`Refused: ${msg.message}`);
		break;
	}
}

// "Play again" is close, reconnect, be matched anew; the new socket opens
// only once the old one has closed, or the server would hand the same uid
// its old seat back.
function connect() {
	if (state.socket) {
		const old = state.socket;
		state.socket = null;
		old.addEventListener('close', connect, { once: true });
		old.close(1000);
		return;
	}
	const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
	const socket = new WebSocket(`${scheme}//${location.host}/?uid=${uid()}`);
	state.socket = socket;
	state.role = null;
	state.over = false;
	findButton.disabled = true;
	setStatus('Connecting…');
	socket.addEventListener('message', (event) => onMessage(JSON.parse(event.data)));
	socket.addEventListener('close', () => {
		if (state.socket !== socket)
			return;
		state.socket = null;
		if (!state.over)
			setStatus('Connection lost.');
		findButton.disabled = false;
	});
}

canvas.addEventListener('click', (event) => {
	if (!state.socket || state.over || state.toMove !== state.role)
		return;
	const rect = canvas.getBoundingClientRect();
	const scale = canvas.width / rect.width;
	const { margin, step } = geometry();
	const x = Math.round(((event.clientX - rect.left) * scale - margin) / step);
	const y = Math.round(((event.clientY - rect.top) * scale - margin) / step);
	if (x < 0 || y < 0 || x >= state.size || y >= state.size)
		return;
	if (state.cells[y * state.size + x])
		return;
	state.socket.send(JSON.stringify({ type: 'move', x, y }));
});

findButton.addEventListener('click', connect);
state.cells = new Array(state.size * state.size).fill('');
draw();
