#!/bin/sh
# The practice-test handout (out/print/<test>-handout.pdf), read back with
# pdftotext and checked against `quizdeck check --dump`: the questions
# drawn (stems in order, count, letters, samples absent, --mix counts,
# --seed), the key (new page, letters and typed answers, "p. N" against
# guide.pdf), fonts, identical bytes, bad flags, and the mixes against
# quiz.js. One line per check: `ok handout ...` / `not ok handout ...`.
set -u
cd "$(dirname "$0")/../.." || exit 2
Q=${QUIZDECK:-./quizdeck}
SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok handout $1"; }
fail() { echo "not ok handout $1: $2"; }
check() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "got \"$2\", want \"$3\""; fi; }

for t in pdffonts pdftotext python3; do
	if ! command -v "$t" >/dev/null 2>&1; then
		fail "tools" "$t not found (make test-deps)"
		exit 0
	fi
done

test=distributed-training
$Q check --dump >"$tmp/dump" 2>/dev/null
$Q print -q -o "$tmp/all" 2>"$tmp/err"
check "print with no arguments succeeds" "$?" 0
check "and says nothing" "$(cat "$tmp/err")" ""
check "print writes the decks, the handouts and the book" \
    "$(cd "$tmp/all/print" && ls | tr '\n' ' ')" "$test-handout.pdf $test.pdf guide.pdf "

# Reads a handout against the dump; prints one line per finding.
cat >"$tmp/read.py" <<'PY'
import re, subprocess, sys
dump, pdf, guide, mode = sys.argv[1:5]
qs = []
for line in open(dump):
    m = re.match(r'    question (\S+) (easy|medium|hard)( sample)?( (number|text|output))? at=\S+ "(.*)"$', line)
    if m:
        qs.append({'id': m[1], 'level': m[2], 'sample': bool(m[3]), 'kind': m[5] or 'choice',
                   'stem': m[6], 'correct': [], 'answers': [], 'n': 0})
        continue
    m = re.match(r'      option \[(x| )\] at=\S+( feedback)?( = "(.*?)")?', line)
    if m and qs:
        q = qs[-1]
        if m[1] == 'x':
            q['correct'].append(chr(ord('A') + q['n']))
            if m[4] is not None:
                q['answers'].append(m[4])
        q['n'] += 1
def text(path, first=None, last=None):
    args = ['pdftotext', '-layout']
    if first: args += ['-f', str(first), '-l', str(last)]
    return subprocess.run(args + [path, '-'], capture_output=True, text=True).stdout
pages = text(pdf).split('\f')
key_page = next(i for i, p in enumerate(pages) if 'Answer key:' in p)
body = '\f'.join(pages[:key_page])
key = '\f'.join(pages[key_page:])
flat = re.sub(r'\s+', ' ', body)
by_stem = {re.sub(r'\s+', ' ', q['stem']): q for q in qs}
# Stems in order: "N. stem" at the start of each question.
found = []
for stem, q in by_stem.items():
    i = flat.find(' ' + stem)
    if i >= 0:
        num = re.search(r'(\d+)\.$', flat[:i])
        found.append((int(num[1]) if num else -1, i, q))
found.sort(key=lambda f: f[1])
print('count', len(found))
print('numbers', ' '.join(str(f[0]) for f in found) == ' '.join(str(i + 1) for i in range(len(found))))
print('samples', sum(1 for f in found if f[2]['sample']))
print('levels', ','.join(str(sum(1 for f in found if f[2]['level'] == l)) for l in ('easy', 'medium', 'hard')))
print('ids', ' '.join(f[2]['id'] for f in found))
# Letters: each choice question's options lettered A.. in the body.
bad_letters = 0
for num, pos, q in found:
    seg = flat[pos:pos + 4000]
    if q['kind'] == 'choice':
        for k in range(q['n']):
            if not re.search(r' %s ' % chr(ord('A') + k), seg):
                bad_letters += 1
print('letters', bad_letters)
# The key: "N. B" or "N. 22 GB ± 5 %" for each question.
kflat = re.sub(r'\s+', ' ', key)
bad_key = []
for num, pos, q in found:
    want = ', '.join(q['correct']) if q['kind'] == 'choice' else ' or '.join(q['answers'])
    if (' %d. %s ' % (num, want)) not in kflat + ' ':
        bad_key.append('%d:%s' % (num, want))
print('key', ' '.join(bad_key) or 'ok')
print('key-page-alone', 'Answer key:' not in pages[key_page - 1] and
      not re.search(r'^\s*\d+\. ', pages[key_page].split('Answer key:')[0], re.M))
# "Guide: Title, p. N": Title is on page N of the book.
refs = re.findall(r'Guide: (.+?), p\. (\d+)', kflat)
bad_refs = [t for t, n in refs if re.sub(r'\s+', ' ', t) not in re.sub(r'\s+', ' ', text(guide, n, n))]
print('refs', len(refs) > 0, ' '.join(bad_refs) or 'ok')
PY
read() { python3 "$tmp/read.py" "$tmp/dump" "$1" "$tmp/all/print/guide.pdf" x 2>&1; }
field() { grep "^$1 " "$2" | sed "s/^$1 //"; }

read "$tmp/all/print/$test-handout.pdf" >"$tmp/whole"
want=$(grep -c '^    question [^ ]* \(easy\|medium\|hard\)\( number\| text\| output\)\? at=' "$tmp/dump")
check "the whole test: every question but the samples" "$(field count "$tmp/whole")" "$want"
check "numbered 1 to N in order" "$(field numbers "$tmp/whole")" True
check "in the test's order" "$(field ids "$tmp/whole")" \
    "$(grep '^    question [^ ]* \(easy\|medium\|hard\)\( number\| text\| output\)\? at=' "$tmp/dump" | awk '{print $2}' | tr '\n' ' ' | sed 's/ $//')"
check "no sample question" "$(field samples "$tmp/whole")" 0
check "options lettered A, B, ..." "$(field letters "$tmp/whole")" 0
check "the key gives each answer (letters, typed answers)" "$(field key "$tmp/whole")" ok
check "the key starts on a new page" "$(field key-page-alone "$tmp/whole")" True
check "\"p. N\" is the page of the section in guide.pdf" "$(field refs "$tmp/whole")" "True ok"
check "a typed question has its box and no letters" \
    "$(pdftotext -raw "$tmp/all/print/$test-handout.pdf" - | grep -c '^Write a number\.$')" \
    "$(grep -c '^    question .* \(easy\|medium\|hard\) number at=' "$tmp/dump")"
check "fonts embedded" "$(pdffonts "$tmp/all/print/$test-handout.pdf" | awk 'NR > 2 && $(NF-4) != "yes"' | wc -l)" 0

$Q print -q -o "$tmp/a" --test $test --questions 8 --seed 7 && \
    $Q print -q -o "$tmp/b" --test $test --questions 8 --seed 7 && \
    $Q print -q -o "$tmp/c" --test $test --questions 8 --seed 8
check "--test writes only that handout" "$(ls "$tmp/a/print" | tr '\n' ' ')" "$test-handout.pdf "
cmp -s "$tmp/a/print/$test-handout.pdf" "$tmp/b/print/$test-handout.pdf" && ok "--seed: identical bytes" ||
    fail "--seed: identical bytes" "differ"
read "$tmp/a/print/$test-handout.pdf" >"$tmp/s7"
read "$tmp/c/print/$test-handout.pdf" >"$tmp/s8"
check "--questions 8 draws 8" "$(field count "$tmp/s7")" 8
check "steady: as the test has them (10/12/8 less a sample each)" "$(field levels "$tmp/s7")" "2,4,2"
[ "$(field ids "$tmp/s7")" != "$(field ids "$tmp/s8")" ] && ok "another seed draws otherwise" ||
    fail "another seed draws otherwise" "same draw"
check "the drawn key matches too" "$(field key "$tmp/s7") $(field refs "$tmp/s7")" "ok True ok"

$Q print -q -o "$tmp/m" --test $test --mix 3,0,2 --seed 3
read "$tmp/m/print/$test-handout.pdf" >"$tmp/mix"
check "--mix 3,0,2: counts per difficulty" "$(field levels "$tmp/mix")" "3,0,2"
$Q print -q -o "$tmp/w" --test $test --questions 10 --confidence warming-up
read "$tmp/w/print/$test-handout.pdf" >"$tmp/warm"
check "--confidence warming-up: 60/30/10" "$(field levels "$tmp/warm")" "6,3,1"
$Q print -q -o "$tmp/t" --test $test --topic collectives
read "$tmp/t/print/$test-handout.pdf" >"$tmp/topic"
check "--topic: that topic's questions only" "$(field ids "$tmp/topic")" \
    "$(sed -n '/^  topic collectives /,/^  topic /p' "$tmp/dump" | grep '^    question [^ ]* \(easy\|medium\|hard\)\( number\| text\| output\)\? at=' | awk '{print $2}' | tr '\n' ' ' | sed 's/ $//')"
$Q print -q -o "$tmp/a" --test $test --questions 8 --seed 7
cmp -s "$tmp/a/print/$test-handout.pdf" "$tmp/b/print/$test-handout.pdf" && ok "identical bytes on rebuild" ||
    fail "identical bytes on rebuild" "differ"

# Bad flags: the message, with the nearest name.
bad() {
	$Q print -q -o "$tmp/bad" "$@" >/dev/null 2>"$tmp/err"
	echo "$? $(head -1 "$tmp/err")"
}
check "bad confidence" "$(bad --confidence steddy)" \
    '2 quizdeck: unknown confidence "steddy"; did you mean "steady"?'
check "bad mix" "$(bad --mix 3,4)" \
    '2 quizdeck: bad mix "3,4": give three counts, easy, medium and hard, as --mix 3,4,3'
check "bad count" "$(bad --questions 0)" \
    '2 quizdeck: bad question count "0" (a whole number, 1 or more)'
check "bad seed" "$(bad --seed x)" '2 quizdeck: bad seed "x" (a whole number)'
check "no such test" "$(bad --test distributed-trainin)" \
    '2 quizdeck: no test named "distributed-trainin"; did you mean "distributed-training"? There are these tests: distributed-training'
check "no such topic" "$(bad --topic colectives)" \
    '2 quizdeck: no topic named "colectives"; did you mean "collectives"? The topics are: data-parallel, collectives, memory, model-parallel, long-context-moe, performance, reliability, rl-post-training'
check "handout options are print's" "$($Q build --seed 3 >/dev/null 2>"$tmp/err"; echo "$? $(head -1 "$tmp/err")")" \
    "2 quizdeck: option --seed does not apply here"

# The mixes: print's help and the theme's quiz.js state the same shares.
js=$(grep -o "'[a-z-]*': { share: { easy: [0-9.]*, medium: [0-9.]*, hard: [0-9.]* }" themes/default/assets/quiz.js |
    sed "s/'\([a-z-]*\)': { share: { easy: \([0-9.]*\), medium: \([0-9.]*\), hard: \([0-9.]*\) }/\1 \2 \3 \4/")
help=$($Q print --help | tr -s ' \n' ' ' | grep -o '[a-z-]* ([0-9]*% easy, [0-9]*% medium, [0-9]*% hard)\|[a-z-]* ([0-9]*%, [0-9]*%, [0-9]*%)' |
    sed 's/[(),%]//g; s/ easy\| medium\| hard//g' | awk '{printf "%s %g %g %g\n", $1, $2/100, $3/100, $4/100}')
check "the mixes agree with quiz.js" "$help" "$js"
