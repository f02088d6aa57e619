// weight.mjs - what the page costs a phone on a slow network: its bytes
// over the wire and its first paint, on a first visit and on a return.
// A benchmark that prints figures, not a test.
//
//   cd tests && node browser/weight.mjs
//
// It starts the server of GOMOKU_SERVER_BIN (build/gomoku-server) on the
// web root of GOMOKU_WEB_ROOT (web/), and loads the page in Debian's
// Chromium as a phone (390 × 844) on "slow 4G" (150 ms round trip, 1.6
// Mbit/s down, 750 kbit/s up, the DevTools preset), RUNS times (7) in a
// fresh browser context each, then once more in that context (a return
// visit, its cache warm). It prints the median of each figure.

import { launchBrowser } from './lib/browser.mjs';
import { startServer } from '../integration/lib/server.mjs';

const RUNS = Number(process.env.WEIGHT_RUNS || 7);
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

/**
 * Loads url in page on the slow network: {bytes, requests, paint (first
 * contentful paint, ms), ready (ms until the page's script has run)}.
 */
async function load(context, page, url) {
	const cdp = await context.newCDPSession(page);
	await cdp.send('Network.enable');
	await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
	let bytes = 0;
	let requests = 0;
	cdp.on('Network.loadingFinished', (event) => {
		bytes += event.encodedDataLength;
		requests++;
	});
	await page.goto(url, { waitUntil: 'load' });
	await page.waitForSelector('#app[data-lang]');
	const { paint, ready } = await page.evaluate(() => ({
		paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
		ready: performance.now(), // the script has run: the page works
	}));
	await cdp.detach();
	return { bytes, requests, paint, ready };
}

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

const server = await startServer();
const browser = await launchBrowser();
const first = [];
const back = [];
try {
	for (let run = 0; run < RUNS; run++) {
		const context = await browser.newContext(PHONE);
		const page = await context.newPage();
		first.push(await load(context, page, `${server.httpUrl}/`));
		back.push(await load(context, page, `${server.httpUrl}/`));
		await context.close();
	}
} finally {
	await browser.close();
	await server.stop();
}
const show = (label, loads) => console.log(`${label.padEnd(12)} ${String(Math.round(median(loads.map((l) => l.bytes)) / 1024)).padStart(4)} KB` +
	` over the wire, ${median(loads.map((l) => l.requests))} requests, first paint ${Math.round(median(loads.map((l) => l.paint)))} ms,` +
	` ready ${Math.round(median(loads.map((l) => l.ready)))} ms`);
console.log(`page weight, ${RUNS} runs, a phone on slow 4G (150 ms round trip, 1.6 Mbit/s), medians:`);
show('first visit', first);
show('return', back);
