// Reads html-validate's JSON report on stdin and prints one TAP-like line
// per page: `ok html-validate LABEL/PAGE` or `not ok ...: the first errors`.
//   node report.js LABEL OUTDIR PAGE...
'use strict';
const path = require('path');
const [label, outdir, ...pages] = process.argv.slice(2);
let input = '';
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
	let results = [];
	try {
		results = input.trim() ? JSON.parse(input) : [];
	} catch (e) {
		console.log(`not ok html-validate ${label}: unreadable report: ${e.message}`);
		process.exit(1);
	}
	const byFile = new Map();
	for (const r of results) byFile.set(path.resolve(r.filePath), r);
	let failed = 0;
	for (const page of pages) {
		const rel = path.relative(outdir, page);
		const r = byFile.get(path.resolve(page));
		const errors = r ? r.messages.filter((m) => m.severity === 2) : [];
		if (errors.length === 0) {
			console.log(`ok html-validate ${label}/${rel}`);
		} else {
			failed++;
			const what = errors.slice(0, 3).map((m) => `${m.line}:${m.column} ${m.message} (${m.ruleId})`).join('; ');
			console.log(`not ok html-validate ${label}/${rel}: ${errors.length} errors: ${what}`);
		}
	}
	process.exit(failed ? 1 : 0);
});
