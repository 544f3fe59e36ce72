#!/bin/sh
# Translations: the string tables agree with English and with the code
# that names them (tests/i18ncheck.py); the default site built in German
# and in Arabic under --strict says nothing and shows the translated
# strings on its pages and in its PDFs (pdftotext), the Arabic ones right
# to left in an Arabic face; a site's own i18n/<lang>.toml adds a language
# and site.toml's [strings] overrides a string. The mistakes (an unknown
# language, an unknown key, a placeholder English lacks) are tests/bad
# cases; lang.c's own rules are tests/unit/lang_test.c.
set -u
cd "$(dirname "$0")/../.." || exit 2
Q=${QUIZDECK:-./quizdeck}
case $Q in /*) ;; *) Q=$PWD/$Q ;; esac
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1 SOURCE_DATE_EPOCH=1700000000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok i18n $1"; }
notok() { echo "not ok i18n $1: $2"; }
# has NAME FILE TEXT...: each TEXT is in FILE.
has() {
	name=$1 file=$2
	shift 2
	for want in "$@"; do
		if ! grep -qF -- "$want" "$file"; then
			notok "$name" "no \"$want\" in $file"
			return
		fi
	done
	ok "$name"
}

python3 tests/i18ncheck.py .

# The default site in a language: its site.toml with language set.
site_in() { # LANG DIR
	mkdir -p "$2"
	cp -R content "$2/"
	sed "s/^language = .*/language = \"$1\"/" site.toml >"$2/site.toml"
}

for l in de ar; do
	site_in $l "$tmp/$l"
	if "$Q" build -q --strict -C "$tmp/$l" -o "$tmp/$l/out" >"$tmp/$l.log" 2>&1; then
		ok "$l: the default site builds under --strict"
	else
		notok "$l: the default site builds under --strict" "$(head -c 600 "$tmp/$l.log")"
		continue
	fi
	if [ -s "$tmp/$l.log" ]; then
		notok "$l: and says nothing" "$(head -c 600 "$tmp/$l.log")"
	else
		ok "$l: and says nothing (no hyphenation warning either)"
	fi
	for f in guide.pdf distributed-training-handout.pdf distributed-training.pdf; do
		pdftotext "$tmp/$l/out/print/$f" "$tmp/$l-$f.txt" 2>/dev/null
	done
done

if [ -f "$tmp/de/out/index.html" ]; then
	out=$tmp/de/out
	has "de: the pages are marked German, left to right" "$out/index.html" '<html lang="de" dir="ltr"'
	has "de: the nav and the home page's counts" "$out/index.html" \
	    '>Übungstest<' '>Lernkarten<' '>Leitfaden<' '30 Fragen · '
	has "de: the test page's title, eyebrow, prompts and answer labels" "$out/quiz/distributed-training/index.html" \
	    '<title>Übungstest · ' 'Übungstest · 30 Fragen' 'Alle 30 Fragen' 'Alle Themen (30)' \
	    'Antwort zeigen' 'Antwort verbergen' 'Gib eine Zahl in ' 'Min.'
	has "de: the bank's leads before an option's feedback and the word on a right option (the stylesheet shows them)" \
	    "$out/quiz/distributed-training/index.html" 'data-lead="Wenn du das gewählt hast:"' \
	    'data-lead="Wenn du das eingegeben hast:"' 'data-mark="richtig"'
	if grep -q 'content: "[A-Za-z]' "$out/assets/style.css" "$out/assets/interactive.css"; then
		notok "the stylesheets write no words of their own" "$(grep -n 'content: "[A-Za-z]' "$out/assets/"*.css | head -3)"
	else
		ok "the stylesheets write no words of their own"
	fi
	has "de: the deck page" "$out/cards/distributed-training/index.html" 'Lernkarten · ' 'Karten dieses Stapels'
	has "de: the deck page's links to the exports" "$out/cards/distributed-training/index.html" \
	    '<span>Diese Karten exportieren:</span>' '>Anki-Paket (.apkg)</a>'
	has "de: the test page's links to the exports" "$out/quiz/distributed-training/index.html" \
	    '<span>Diesen Test für Moodle exportieren:</span>' '>Moodle-XML</a>'
	has "de: a chapter's eyebrow and its Practise this" "$out/guide/pipeline/index.html" \
	    'Leitfaden · Kapitel ' 'aria-label="Üben: ' 'Frage · ' 'aria-label="Link zu diesem Abschnitt"'
	has "de: a table's scrolling region, named by its columns" "$out/guide/collectives/index.html" \
	    'class="table-wrap" tabindex="0" aria-label="Tabelle: Collective, Before, After, '
	has "de: the guide's contents" "$out/guide/index.html" '13 Kapitel'
	has "de: the offline page's title" "$out/offline.html" '<title>Du bist offline'
	has "de: the search index places chapters in the Leitfaden" "$out/assets/search-index.js" '"where":["Leitfaden"]'
	has "de: the book's contents, chapters, page references and Practise this" "$tmp/de-guide.pdf.txt" \
	    'Inhalt' 'Kapitel 1' '(S. ' 'Üben:'
	has "de: the handout's labels and answer key" "$tmp/de-distributed-training-handout.pdf.txt" \
	    'Name ' 'Datum ' 'Lösungen: ' 'Schreib eine Zahl.' ' Fragen'
fi

if [ -f "$tmp/ar/out/index.html" ]; then
	out=$tmp/ar/out
	has "ar: the pages are marked Arabic, right to left" "$out/index.html" '<html lang="ar" dir="rtl"'
	has "ar: the nav and the counts, in their plural forms" "$out/index.html" \
	    '>اختبار تدريبي<' '>بطاقات تعليمية<' '>الدليل<' '30 سؤالًا'
	has "ar: the test page" "$out/quiz/distributed-training/index.html" \
	    'اختبار تدريبي · 30 سؤالًا' 'أظهر الإجابة' 'أخفِ الإجابة' 'كل المواضيع (30)'
	has "ar: the deck page's links to the exports" "$out/cards/distributed-training/index.html" \
	    '<span>صدّر هذه البطاقات:</span>' '>حزمة Anki'
	has "ar: the test page's links to the exports" "$out/quiz/distributed-training/index.html" \
	    '<span>صدّر هذا الاختبار إلى Moodle:</span>'
	has "ar: a chapter's eyebrow in Latin digits" "$out/guide/pipeline/index.html" 'الدليل · الفصل '
	has "ar: a table's scrolling region, its columns behind the Arabic comma" "$out/guide/collectives/index.html" \
	    'class="table-wrap" tabindex="0" aria-label="جدول: Collective، Before، After، '
	has "ar: the guide's contents: 13 chapters is many" "$out/guide/index.html" '13 فصلًا'
	has "ar: the manifest says right to left" "$out/manifest.webmanifest" '"dir": "rtl"'
	has "ar: the book's contents and chapter labels" "$tmp/ar-guide.pdf.txt" 'المحتويات' 'الفصل'
	# pdftotext takes lam-alef apart ("الاسم" reads back as "االسم"): words without it.
	has "ar: the handout's labels" "$tmp/ar-distributed-training-handout.pdf.txt" 'التاريخ' 'اكتب'
	for f in guide.pdf distributed-training-handout.pdf; do
		if pdffonts "$out/print/$f" 2>/dev/null | grep -q 'Noto\(Naskh\|Sans\)Arabic'; then
			ok "ar: $f sets Arabic in a Noto Arabic face"
		else
			notok "ar: $f sets Arabic in a Noto Arabic face" "$(pdffonts "$out/print/$f" 2>&1 | head -c 400)"
		fi
	done
fi

# A language quizdeck does not ship, from the site's own table, and an override in site.toml.
mkdir -p "$tmp/xx/i18n" "$tmp/xx/content/guide"
printf 'title = "X"\nlanguage = "xx"\n\n[strings]\n"nav.guide" = "Das Buch"\n' >"$tmp/xx/site.toml"
printf '[language]\nname = "Xish"\ndir = "rtl"\n\n[counts.chapters]\none = "{n} xchapter"\nother = "{n} xchapters"\n\n[nav]\nguide = "Xguide"\n' \
    >"$tmp/xx/i18n/xx.toml"
printf '# One\n\nText.\n' >"$tmp/xx/content/guide/a.md"
if "$Q" build -q --strict --no-pdf -C "$tmp/xx" -o "$tmp/xx/out" >"$tmp/xx.log" 2>&1 && [ ! -s "$tmp/xx.log" ]; then
	ok "a site's own i18n/xx.toml: builds under --strict, saying nothing"
	has "a site's own i18n/xx.toml: its strings, its direction, [strings] over it, English elsewhere" \
	    "$tmp/xx/out/guide/index.html" '<html lang="xx" dir="rtl"' '1 xchapter' '>Das Buch<' 'Skip to content'
else
	notok "a site's own i18n/xx.toml: builds under --strict, saying nothing" "$(head -c 600 "$tmp/xx.log")"
fi
exit 0
