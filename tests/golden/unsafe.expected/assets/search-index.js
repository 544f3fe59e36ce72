/* quizdeck's search index, written at build time and read by search.js. */
window.quizdeckSearch = [
];
