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
		'mode.label': 'Game mode',
		'mode.online': 'Online',
		'mode.ai': 'vs Computer',
		'mode.local': 'Local two players',
		'level.label': 'Computer level',
		'level.easy': 'Easy',
		'level.medium': 'Medium',
		'level.hard': 'Hard',
		'badge.ai': 'AI',
		'player.first': 'Player 1',
		'player.second': 'Player 2',
		'player.computer': 'Computer',
		'player.computer.easy': 'Computer (easy)',
		'player.computer.medium': 'Computer (medium)',
		'player.computer.hard': 'Computer (hard)',
		'button.ai': 'Play the computer',
		'button.local': 'Start game',
		'button.starting': 'Starting…',
		'button.leave': 'Leave game',
		'button.undo': 'Undo',
		'button.redo': 'Redo',
		'button.accept': 'Accept',
		'button.decline': 'Decline',
		'status.idle.ai': 'Pick a level and press “Play the computer”.',
		'status.idle.local': 'Two players, one screen: press “Start game”.',
		'status.starting': 'Starting a game against the computer…',
		'status.ai_turn': 'The computer is thinking…',
		'status.local.front': 'Black to move',
		'status.local.back': 'White to move',
		'status.local.front.wins': 'Black wins!',
		'status.local.back.wins': 'White wins!',
		'status.local.front.full': 'Black wins — the board is full.',
		'status.local.back.full': 'White wins — the board is full.',
		'note.offer.sent': 'Takeback asked — waiting for your opponent…',
		'note.offer.received': 'Your opponent asks to take back a move.',
		'note.answer.opponent.accepted': 'Your opponent accepted the takeback.',
		'note.answer.opponent.declined': 'Your opponent declined the takeback.',
		'note.answer.me.accepted': 'You accepted the takeback.',
		'note.answer.me.declined': 'You declined the takeback.',
		'prompt.takeback': 'Your opponent asks to take back a move.',
		'toast.takeback.accepted': 'Takeback accepted.',
		'toast.takeback.declined': 'Takeback declined.',
		'error.bad_mode': 'The server does not offer that game mode.',
		'error.bad_offer': 'The server did not understand that request.',
		'error.nothing_to_undo': 'You have no move to take back.',
		'error.nothing_to_redo': 'There is nothing to redo.',
		'error.offer_pending': 'A takeback request is already waiting for an answer.',
		'error.no_offer': 'There is no request to answer.',
		'error.too_soon': 'Your takeback was just declined: wait a few seconds before asking again.',
		'error.unavailable': 'The server cannot save games right now: the game is paused until it can.',
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
		'mode.label': '对局模式',
		'mode.online': '在线对战',
		'mode.ai': '人机对战',
		'mode.local': '本地双人',
		'level.label': '电脑难度',
		'level.easy': '简单',
		'level.medium': '中等',
		'level.hard': '困难',
		'badge.ai': 'AI',
		'player.first': '玩家一',
		'player.second': '玩家二',
		'player.computer': '电脑',
		'player.computer.easy': '电脑（简单）',
		'player.computer.medium': '电脑（中等）',
		'player.computer.hard': '电脑（困难）',
		'button.ai': '开始人机对战',
		'button.local': '开始对局',
		'button.starting': '正在开始…',
		'button.leave': '退出对局',
		'button.undo': '悔棋',
		'button.redo': '撤销悔棋',
		'button.accept': '同意',
		'button.decline': '拒绝',
		'status.idle.ai': '选择难度，点击“开始人机对战”。',
		'status.idle.local': '两人同屏对弈：点击“开始对局”。',
		'status.starting': '正在开始人机对战…',
		'status.ai_turn': '电脑思考中…',
		'status.local.front': '轮到黑棋',
		'status.local.back': '轮到白棋',
		'status.local.front.wins': '黑棋胜！',
		'status.local.back.wins': '白棋胜！',
		'status.local.front.full': '棋盘已满，黑棋胜。',
		'status.local.back.full': '棋盘已满，白棋胜。',
		'note.offer.sent': '已请求悔棋，等待对手回应…',
		'note.offer.received': '对手请求悔棋。',
		'note.answer.opponent.accepted': '对手同意了悔棋。',
		'note.answer.opponent.declined': '对手拒绝了悔棋。',
		'note.answer.me.accepted': '你同意了悔棋。',
		'note.answer.me.declined': '你拒绝了悔棋。',
		'prompt.takeback': '对手请求悔棋，是否同意？',
		'toast.takeback.accepted': '对手同意悔棋。',
		'toast.takeback.declined': '对手拒绝悔棋。',
		'error.bad_mode': '服务器不支持这种对局模式。',
		'error.bad_offer': '服务器无法理解这个请求。',
		'error.nothing_to_undo': '没有可以悔的棋。',
		'error.nothing_to_redo': '没有可以撤销的悔棋。',
		'error.offer_pending': '已有悔棋请求在等待回应。',
		'error.no_offer': '没有需要回应的请求。',
		'error.too_soon': '悔棋刚被拒绝，请稍等几秒再试。',
		'error.unavailable': '服务器暂时无法保存对局，对局已暂停，恢复后继续。',
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
 * The name of the server's engine at level (easy, medium, hard) in lang:
 * "Computer (hard)", "电脑（困难）"; "Computer" when the level is not one
 * the page knows. The page names the engine itself rather than show the
 * name the server gives it, which is English.
 */
export function computerName(lang, level) {
	const key = `player.computer.${level}`;
	return level && hasText('en', key) ? text(lang, key) : text(lang, 'player.computer');
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
