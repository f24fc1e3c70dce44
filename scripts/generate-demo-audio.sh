#!/usr/bin/env bash
# Generates the demo course "English for beginners / Anglais pour débutants"
# (French speakers learning English) used to seed Parlons:
#
#   apps/api/seed-media/lesson-{1,2,3}.mp3   synthesized speech (espeak-ng)
#   apps/api/seed-media/lessons.json         metadata, transcripts and cue times
#   apps/api/seed-media/cover.svg            course cover
#   apps/api/test/fixtures/tone-10s.mp3      10 s 440 Hz sine (upload tests)
#   apps/api/test/fixtures/not-audio.pdf     tiny valid PDF (upload tests)
#
# Each sentence is synthesized to its own WAV, trimmed of leading/trailing
# silence and measured in samples (soxi -s); the lesson is the concatenation
# lead-in + s1 + gap + s2 + ... + tail, so cue start times are exact.
#
# Requires: espeak-ng, sox (sox + soxi), lame  (apt-get install -y espeak-ng lame sox)
# Usage:    scripts/generate-demo-audio.sh [--no-fixtures]
# Output is deterministic for a given set of tool versions.
set -euo pipefail
export LC_ALL=C # "." as decimal separator; all computed strings are ASCII

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/apps/api/seed-media"
FIXTURES="$ROOT/apps/api/test/fixtures"

WITH_FIXTURES=1
case "${1:-}" in
  --no-fixtures) WITH_FIXTURES=0 ;;
  "") ;;
  *) echo "usage: $0 [--no-fixtures]" >&2; exit 2 ;;
esac

VOICE="${VOICE:-en-us+f3}" # espeak-ng US English, female variant
SPEED=120                  # words per minute (espeak default is 175)
WORD_GAP=2                 # extra pause between words, in units of 10 ms
PITCH=50
RATE=22050                 # output sample rate (Hz), MPEG-2 Layer III
BITRATE=32                 # kbps, CBR
LEAD_SAMPLES=$((RATE / 2)) # 0.5 s before the first sentence
GAP_SAMPLES=$RATE          # 1.0 s between sentences
TAIL_SAMPLES=$((RATE * 3 / 4)) # 0.75 s after the last sentence
ALBUM="English for beginners / Anglais pour débutants"

for tool in espeak-ng sox soxi lame; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "error: '$tool' not found (apt-get install -y espeak-ng lame sox)" >&2
    exit 1
  }
done

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"

# ---------------------------------------------------------------- content ---
# The sentences are spoken; text_fr / text_en describe the lesson.

LESSON_1_TITLE_EN="Greetings"
LESSON_1_TITLE_FR="Les salutations"
LESSON_1_TEXT_EN="Say hello, introduce yourself and ask how someone is. Listen, then repeat each sentence during the pause."
LESSON_1_TEXT_FR="Dites bonjour, présentez-vous et demandez des nouvelles. « Hello » = « Bonjour », « My name is… » = « Je m'appelle… », « How are you? » = « Comment allez-vous ? ». Écoutez, puis répétez chaque phrase pendant la pause."
LESSON_1_SENTENCES=(
  "Hello."
  "My name is Anna."
  "What is your name?"
  "How are you?"
  "I am fine, thank you."
  "Goodbye!"
)

LESSON_2_TITLE_EN="At the café"
LESSON_2_TITLE_FR="Au café"
LESSON_2_TEXT_EN="Order a drink politely, ask for the price and thank the waiter."
LESSON_2_TEXT_FR="Commandez une boisson poliment, demandez le prix et remerciez le serveur. « A coffee, please » = « Un café, s'il vous plaît », « How much is it? » = « C'est combien ? »."
LESSON_2_SENTENCES=(
  "Good morning."
  "A coffee, please."
  "With milk, please."
  "How much is it?"
  "It is three euros."
  "Thank you. Have a nice day!"
)

LESSON_3_TITLE_EN="Numbers and time"
LESSON_3_TITLE_FR="Les nombres et l'heure"
LESSON_3_TEXT_EN="Count from one to five and ask for and tell the time."
LESSON_3_TEXT_FR="Comptez de un à cinq, demandez et donnez l'heure. « What time is it? » = « Quelle heure est-il ? », « half past eight » = « huit heures et demie »."
LESSON_3_SENTENCES=(
  "One, two, three, four, five."
  "What time is it?"
  "It is seven o'clock."
  "It is half past eight."
  "See you at ten!"
)

# ---------------------------------------------------------------- helpers ---

json_str() { # JSON string literal (input has no control characters)
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  printf '"%s"' "$s"
}

seconds_1dp() { awk -v n="$1" -v r="$RATE" 'BEGIN { printf "%.1f", n / r }'; }

mmss() { # floor to whole seconds, so seeking to the label never cuts the start
  local s=$(($1 / RATE))
  printf '[%02d:%02d]' $((s / 60)) $((s % 60))
}

silence_wav() { # samples, output
  sox -q -R -r "$RATE" -c 1 -n -b 16 "$2" trim 0 "${1}s"
}

# Speak one sentence; trim silence at both ends so the cue is the speech onset.
speak_wav() { # text, output
  espeak-ng -v "$VOICE" -s "$SPEED" -g "$WORD_GAP" -p "$PITCH" -w "$TMP/raw.wav" "$1"
  sox -q -R "$TMP/raw.wav" -r "$RATE" -c 1 -b 16 "$2" \
    silence 1 0.01 -45d reverse silence 1 0.01 -45d reverse
}

encode_mp3() { # wav, mp3, title, track
  # UTF-8 locale + UTF-16 frames so accented titles survive in the ID3 tag
  LC_ALL=C.UTF-8 lame --quiet --cbr -b "$BITRATE" -m m \
    --resample "$(awk -v r="$RATE" 'BEGIN { print r / 1000 }')" -q 2 \
    --id3v2-only --id3v2-utf16 --tt "$3" --ta "Parlons" --tl "$ALBUM" --tn "$4/3" --tg "Speech" \
    "$1" "$2"
}

# ---------------------------------------------------------------- lessons ---

silence_wav "$LEAD_SAMPLES" "$TMP/lead.wav"
silence_wav "$GAP_SAMPLES" "$TMP/gap.wav"
silence_wav "$TAIL_SAMPLES" "$TMP/tail.wav"

json="["
for n in 1 2 3; do
  declare -n sentences="LESSON_${n}_SENTENCES"
  declare -n title_en="LESSON_${n}_TITLE_EN"
  declare -n title_fr="LESSON_${n}_TITLE_FR"
  declare -n text_en="LESSON_${n}_TEXT_EN"
  declare -n text_fr="LESSON_${n}_TEXT_FR"

  parts=("$TMP/lead.wav")
  pos=$LEAD_SAMPLES
  transcript=""
  cues=""
  i=0
  for sentence in "${sentences[@]}"; do
    wav="$TMP/l${n}-s${i}.wav"
    speak_wav "$sentence" "$wav"
    len=$(soxi -s "$wav")
    ((i > 0)) && { parts+=("$TMP/gap.wav"); pos=$((pos + GAP_SAMPLES)); }
    transcript+="${transcript:+\\n}$(mmss "$pos") $sentence"
    cues+="${cues:+,}
      {\"start\": $(seconds_1dp "$pos"), \"text\": $(json_str "$sentence")}"
    parts+=("$wav")
    pos=$((pos + len))
    i=$((i + 1))
  done
  parts+=("$TMP/tail.wav")
  pos=$((pos + TAIL_SAMPLES))

  sox -q -R "${parts[@]}" "$TMP/concat.wav"
  sox -q -R "$TMP/concat.wav" "$TMP/lesson-$n.wav" norm -1
  total=$(soxi -s "$TMP/lesson-$n.wav")
  if ((total != pos)); then
    echo "error: lesson $n has $total samples, expected $pos" >&2
    exit 1
  fi
  encode_mp3 "$TMP/lesson-$n.wav" "$OUT/lesson-$n.mp3" "Lesson $n: $title_en" "$n"

  duration=$(awk -v n="$total" -v r="$RATE" 'BEGIN { printf "%d", n / r + 0.5 }')
  free=false; ((n == 1)) && free=true
  # transcript lines are already JSON-escaped except for quotes/backslashes
  transcript=${transcript//\"/\\\"}

  ((n > 1)) && json+=","
  json+="
  {
    \"file\": \"lesson-$n.mp3\",
    \"title_en\": $(json_str "$title_en"),
    \"title_fr\": $(json_str "$title_fr"),
    \"text_en\": $(json_str "$text_en"),
    \"text_fr\": $(json_str "$text_fr"),
    \"transcript\": \"$transcript\",
    \"cues\": [$cues
    ],
    \"duration_seconds\": $duration,
    \"free\": $free
  }"
  echo "lesson-$n.mp3: $(seconds_1dp "$total") s, $(wc -c <"$OUT/lesson-$n.mp3") bytes"
  unset -n sentences title_en title_fr text_en text_fr
done
json+="
]"
printf '%s\n' "$json" >"$OUT/lessons.json"
echo "lessons.json: $(wc -c <"$OUT/lessons.json") bytes"

# ------------------------------------------------------------------ cover ---

cat >"$OUT/cover.svg" <<'SVG'
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600" width="600" height="600" role="img" aria-labelledby="t">
  <title id="t">English for beginners / Anglais pour débutants</title>
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#1d3557"/>
      <stop offset="1" stop-color="#2a6f97"/>
    </linearGradient>
  </defs>
  <rect width="600" height="600" fill="url(#bg)"/>
  <circle cx="520" cy="80" r="150" fill="#ffffff" opacity="0.05"/>
  <circle cx="70" cy="560" r="110" fill="#ffffff" opacity="0.05"/>
  <g transform="translate(300 210)">
    <path d="M-95 -70h190a24 24 0 0 1 24 24v92a24 24 0 0 1-24 24h-110l-42 36v-36h-38a24 24 0 0 1-24-24v-92a24 24 0 0 1 24-24z" fill="#f1faee"/>
    <g fill="#e63946">
      <rect x="-66" y="-14" width="12" height="28" rx="6"/>
      <rect x="-42" y="-34" width="12" height="68" rx="6"/>
      <rect x="-18" y="-22" width="12" height="44" rx="6"/>
      <rect x="6" y="-44" width="12" height="88" rx="6"/>
      <rect x="30" y="-26" width="12" height="52" rx="6"/>
      <rect x="54" y="-10" width="12" height="20" rx="6"/>
    </g>
  </g>
  <g font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" text-anchor="middle">
    <text x="300" y="380" font-size="46" font-weight="700" fill="#f1faee">English for beginners</text>
    <text x="300" y="428" font-size="28" fill="#a8dadc">Anglais pour débutants</text>
    <rect x="230" y="462" width="140" height="3" rx="1.5" fill="#e63946"/>
    <text x="300" y="512" font-size="20" fill="#f1faee" letter-spacing="1">3 leçons audio · 3 audio lessons</text>
    <text x="300" y="566" font-size="18" font-weight="600" fill="#a8dadc" letter-spacing="4">PARLONS</text>
  </g>
</svg>
SVG
echo "cover.svg: $(wc -c <"$OUT/cover.svg") bytes"

# --------------------------------------------------------------- fixtures ---

if ((WITH_FIXTURES)); then
  mkdir -p "$FIXTURES"

  # 10 s, 440 Hz sine, mono, 32 kbps CBR; no ID3 tag (file starts with frame sync)
  sox -q -R -r "$RATE" -c 1 -n -b 16 "$TMP/tone.wav" synth 10 sine 440 vol 0.5
  lame --quiet --cbr -b 32 -m m --resample 22.05 "$TMP/tone.wav" "$FIXTURES/tone-10s.mp3"
  echo "tone-10s.mp3: $(wc -c <"$FIXTURES/tone-10s.mp3") bytes"

  # Minimal valid one-page PDF with a correct xref table (all ASCII).
  objs=(
    "<< /Type /Catalog /Pages 2 0 R >>"
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"
    ""
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
  )
  stream="BT /F1 18 Tf 36 64 Td (This is not an audio file.) Tj ET"
  objs[3]="<< /Length ${#stream} >>
stream
$stream
endstream"
  pdf="%PDF-1.4
"
  offsets=()
  for k in "${!objs[@]}"; do
    offsets+=("${#pdf}")
    pdf+="$((k + 1)) 0 obj
${objs[$k]}
endobj
"
  done
  xref_at=${#pdf}
  pdf+="xref
0 $((${#objs[@]} + 1))
0000000000 65535 f 
"
  for off in "${offsets[@]}"; do
    pdf+="$(printf '%010d' "$off") 00000 n 
"
  done
  pdf+="trailer
<< /Size $((${#objs[@]} + 1)) /Root 1 0 R >>
startxref
$xref_at
%%EOF
"
  printf '%s' "$pdf" >"$FIXTURES/not-audio.pdf"
  echo "not-audio.pdf: $(wc -c <"$FIXTURES/not-audio.pdf") bytes"
fi
