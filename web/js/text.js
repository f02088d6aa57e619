// Every string the page shows, in English and Chinese, and the choice
// between them. Pure: no DOM, so node --test imports it.

export const LANGUAGES = ['en', 'zh'];

const STRINGS = {
	en: {
		'title': 'Gomoku',
		'page.title': 'Gomoku — five in a row',
		'lang.toggle.label': 'Switch to Chinese',
		'mute.on': 'Sound off',
		'mute.off': 'Sound on',
		'board.label': 'Gomoku board, {size} by {size}',
		'name.label': 'Your name',
		'name.placeholder': 'Anonymous',
		'you': 'you',
		'player.you': 'You',
		'player.opponent': 'Opponent',
		'player.waiting': 'Waiting…',
		'player.none': '—',
		'role.front': 'Black',
		'role.back': 'White',
		'turn.badge': 'to move',
		'button.find': 'Find opponent',
		'button.searching': 'Searching…',
		'button.cancel': 'Cancel',
		'button.playing': 'Game in progress',
		'button.resuming': 'Reconnecting…',
		'button.again': 'Play again',
		'status.idle': 'Press “Find opponent” to play.',
		'status.searching': 'Looking for an opponent…',
		'status.reconnecting': 'Connection lost — reconnecting…',
		'status.resuming': 'Reconnecting to your game…',
		'status.your_turn': 'Your turn',
		'status.their_turn': 'Opponent’s turn',
		'status.win': 'You win!',
		'status.win.forfeit': 'You win — your opponent left.',
		'status.loss': 'You lose.',
		'status.loss.forfeit': 'You lost: you left the game.',
		'status.win.full': 'You win — the board is full.',
		'status.loss.full': 'You lose — the board is full.',
		'status.draw': 'Draw — the board is full.',
		'status.left': 'Your opponent left.',
		'status.lost': 'Connection lost — the game is lost.',
		'status.replaced': 'This game was opened in another tab or window.',
		'status.unreachable': 'Cannot reach the server. Try again.',
		'status.refused': 'The server refused the connection: {message}',
		'note.left': 'Your opponent has left.',
		'note.away': 'Opponent reconnecting… {seconds} s',
		'note.first': 'Black moves first.',
		'note.moves': 'Moves played: {moves}',
		'note.five': 'Five in a row: {from} – {to}',
		'hint.keys': 'Arrow keys move, Enter places.',
		'rule.freestyle': 'Freestyle: five or more in a row wins.',
		'rule.standard': 'Standard rule: exactly five in a row wins; six or more do not.',
		'toast.resumed': 'Reconnected — your game goes on.',
		'toast.back': 'Your opponent is back.',
		'error.not_your_turn': 'It is not your turn.',
		'error.occupied': 'That point is taken.',
		'error.out_of_range': 'That point is off the board.',
		'error.game_over': 'The game is over.',
		'error.not_in_game': 'You are not in a game.',
		'error.bad_name': 'The server refused that name.',
		'error.other': 'The server refused: {message}',
	},
	zh: {
		'title': '五子棋',
		'page.title': '五子棋 — 在线对战',
		'lang.toggle.label': 'Switch to English',
		'mute.on': '关闭声音',
		'mute.off': '打开声音',
		'board.label': '五子棋棋盘，{size} × {size}',
		'name.label': '你的名字',
		'name.placeholder': '匿名',
		'you': '你',
		'player.you': '你',
		'player.opponent': '对手',
		'player.waiting': '等待中…',
		'player.none': '—',
		'role.front': '黑棋',
		'role.back': '白棋',
		'turn.badge': '走棋',
		'button.find': '寻找对手',
		'button.searching': '匹配中…',
		'button.cancel': '取消',
		'button.playing': '对局进行中',
		'button.resuming': '正在重连…',
		'button.again': '再来一局',
		'status.idle': '点击“寻找对手”开始对局。',
		'status.searching': '正在寻找对手…',
		'status.reconnecting': '连接中断，正在重连…',
		'status.resuming': '正在恢复你的对局…',
		'status.your_turn': '轮到你了',
		'status.their_turn': '对手思考中',
		'status.win': '你赢了！',
		'status.win.forfeit': '你赢了——对手已离开。',
		'status.loss': '你输了。',
		'status.loss.forfeit': '你已离开对局，判负。',
		'status.win.full': '棋盘已满，你赢了。',
		'status.loss.full': '棋盘已满，你输了。',
		'status.draw': '棋盘已满，和棋。',
		'status.left': '对手已离开。',
		'status.lost': '连接中断——本局已判负。',
		'status.replaced': '本局已在另一个标签页或窗口中打开。',
		'status.unreachable': '无法连接服务器，请重试。',
		'status.refused': '服务器拒绝了连接：{message}',
		'note.left': '对手已离开。',
		'note.away': '对手正在重连… {seconds} 秒',
		'note.first': '黑棋先行。',
		'note.moves': '已下 {moves} 手',
		'note.five': '五连：{from} – {to}',
		'hint.keys': '方向键移动，回车落子。',
		'rule.freestyle': '自由规则：五子或以上连成一线即胜。',
		'rule.standard': '标准规则：恰好五子连线才胜，长连不算。',
		'toast.resumed': '已重新连接，对局继续。',
		'toast.back': '对手已回来。',
		'error.not_your_turn': '还没轮到你。',
		'error.occupied': '这里已经有棋子了。',
		'error.out_of_range': '这个位置不在棋盘上。',
		'error.game_over': '对局已经结束。',
		'error.not_in_game': '你不在对局中。',
		'error.bad_name': '服务器不接受这个名字。',
		'error.other': '服务器拒绝了请求：{message}',
	},
};

/** Every key of the English table: the keys each language must have. */
export function textKeys() {
	return Object.keys(STRINGS.en);
}

/** True when lang has its own string for key. */
export function hasText(lang, key) {
	return Object.prototype.hasOwnProperty.call(STRINGS[lang] || {}, key);
}

/**
 * The string for key in lang with every {param} replaced from params.
 * Falls back to English, then to the key itself, so a missing string
 * shows up as its key rather than as nothing.
 */
export function text(lang, key, params = {}) {
	const table = STRINGS[lang] || STRINGS.en;
	const template = hasText(lang, key) ? table[key] : (STRINGS.en[key] ?? key);
	return template.replace(/\{(\w+)\}/g, (whole, name) =>
		(name in params ? String(params[name]) : whole));
}

/**
 * The page's language from the browser's preferred languages (the
 * navigator.languages list, best first): Chinese when the first one that
 * is English or Chinese is Chinese, else English.
 */
export function pickLanguage(preferred) {
	for (const tag of preferred || []) {
		const base = String(tag).toLowerCase().split('-')[0];
		if (LANGUAGES.includes(base))
			return base;
	}
	return 'en';
}

/** The other language: the one the toggle switches to. */
export function otherLanguage(lang) {
	return lang === 'zh' ? 'en' : 'zh';
}

/**
 * A board column's letter: A, B, … from the left (A–O on 15 × 15). Row
 * numbers run 1…N from the bottom, as in renju notation.
 */
export function columnLabel(x) {
	return String.fromCharCode(65 + x);
}

/** A board row's number: 1 at the bottom row, size at the top. */
export function rowLabel(y, size) {
	return String(size - y);
}

/** A point in notation: "H8" for the centre of 15 × 15. */
export function pointLabel(x, y, size) {
	return `${columnLabel(x)}${rowLabel(y, size)}`;
}
