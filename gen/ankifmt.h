/*
 * ankifmt: what the writer (anki.c) and the reader (import.c) of Anki
 * packages both know of the format, so that they cannot disagree.
 */
#ifndef QUIZDECK_ANKIFMT_H
#define QUIZDECK_ANKIFMT_H

/* A quizdeck note's guid: this, the deck and the card id ("quizdeck:deck/id"). */
#define ANKI_GUID_PREFIX "quizdeck:"

/* Between a note's fields in notes.flds. */
#define ANKI_FIELD_SEP '\x1f'

/* The package's entries: the legacy collection, the newer one of the same schema, the media map. */
#define ANKI_COLLECTION "collection.anki2"
#define ANKI_COLLECTION_21 "collection.anki21"
#define ANKI_MEDIA_MAP "media"

/* Anki 2.1.50's zstd-compressed collection (schema 18), which only newer Anki reads. */
#define ANKI_COLLECTION_21B "collection.anki21b"

/* col.ver of the legacy schema, the one written and read here. */
#define ANKI_SCHEMA_VERSION 11

/* A note type's col.models "type": a cloze type makes a card per cloze number. */
#define ANKI_MODEL_CLOZE 1

#endif
