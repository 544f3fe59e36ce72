/* quizdeck's search index, written at build time and read by search.js. */
window.quizdeckSearch = [
{"kind":"chapter","title":"Dough","where":["Guide"],"url":"guide/dough/index.html","text":""},
{"kind":"section","title":"Dough","where":["Dough"],"url":"guide/dough/index.html#dough","text":"Bread is flour, water, salt and yeast."},
{"kind":"section","title":"Kneading","where":["Dough"],"url":"guide/dough/index.html#kneading","text":"Knead for ten minutes. Things to check: smooth surface passes the window-pane test A loaf, drawn as a brown oval"},
{"kind":"section","title":"By machine","where":["Dough"],"url":"guide/dough/index.html#by-machine","text":"A mixer with a hook does the same in half the time."},
{"kind":"section","title":"Rising","where":["Dough"],"url":"guide/dough/index.html#rising","text":"Next: knives and nothing else."},
{"kind":"chapter","title":"Knives","where":["Guide"],"url":"guide/knives/index.html","text":"Keep them sharp."},
{"kind":"section","title":"Honing","where":["Knives"],"url":"guide/knives/index.html#honing","text":"Hone before each use. Back to dough or the first question. A quote with a list: first second Line one line two."},
{"kind":"question","title":"Why knead bread dough?","where":["Kitchen basics","Dough"],"url":"quiz/basics/index.html#why-knead","text":""},
{"kind":"question","title":"Which of these are ingredients of a plain loaf?","where":["Kitchen basics","Dough"],"url":"quiz/basics/index.html#plain-loaf","text":""},
{"kind":"question","title":"How long should a dough rise at room temperature?","where":["Kitchen basics","Dough"],"url":"quiz/basics/index.html#rise","text":""},
{"kind":"question","title":"Which edge cuts tomatoes best?","where":["Kitchen basics","Knives"],"url":"quiz/basics/index.html#tomato","text":""},
{"kind":"card","title":"Why is a sharp knife safer?","where":["Knives"],"url":"cards/knives/index.html#sharp","text":"It goes where you aim it instead of slipping. See honing."},
{"kind":"card","title":"What does a honing steel do?","where":["Knives"],"url":"cards/knives/index.html#hone","text":"It straightens the edge; it removes almost no metal."},
{"kind":"card","title":"What is a 2-step sharpening routine?","where":["Knives"],"url":"cards/knives/index.html#2-step","text":"Grind on a coarse stone. Polish on a fine stone."},
];
