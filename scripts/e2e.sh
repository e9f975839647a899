#!/usr/bin/env bash
# The README's curl walkthrough, run as a script against a running `npm start`.
# Usage: DEMO_PARTNER_KEY=… DEMO_PARTNER_KEY_2=… [DEMO_PUBLIC_KEY=… ADMIN_TOKEN=…] bash scripts/e2e.sh [base_url]
set -euo pipefail

BASE="${1:-http://localhost:4000}"
: "${DEMO_PARTNER_KEY:?set DEMO_PARTNER_KEY to the key npm start printed}"
: "${DEMO_PARTNER_KEY_2:?set DEMO_PARTNER_KEY_2 to the second key npm start printed}"
AUTH="Authorization: Bearer $DEMO_PARTNER_KEY"
passed=0
failed=0

json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=new Function("j","return "+process.argv[1])(JSON.parse(s));console.log(typeof v==="string"?v:JSON.stringify(v))})' "$1"; }
check() { # name expected actual
  if [[ "$2" == "$3" ]]; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1: expected '$2', got '$3'"; fi
}
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

echo "== health"
check "GET /health" '{"status":"ok"}' "$(curl -s "$BASE/health")"

echo "== account"
account=$(curl -s "$BASE/v1/account" -H "$AUTH")
check "account role is partner" partner "$(echo "$account" | json j.account.role)"

echo "== gradings: first page, detail, next page"
page=$(curl -s "$BASE/v1/gradings?limit=5" -H "$AUTH")
check "5 gradings on the first page" 5 "$(echo "$page" | json j.gradings.length)"
grading_id=$(echo "$page" | json 'j.gradings[0].id')
cursor=$(echo "$page" | json j.next_cursor)
detail=$(curl -s "$BASE/v1/gradings/$grading_id" -H "$AUTH")
check "grading detail has the id" "$grading_id" "$(echo "$detail" | json j.grading.id)"
slab_url=$(echo "$detail" | json 'j.user_card_grade && j.user_card_grade.slab_front_url')
if [[ "$slab_url" != "null" ]]; then
  check "slab image URL serves a PNG" 200 "$(status "$slab_url")"
  check "a tampered image URL is refused" 403 "$(status "${slab_url/slab-front/slab-back}")"
fi
next=$(curl -s -G "$BASE/v1/gradings" --data-urlencode "limit=5" --data-urlencode "cursor=$cursor" -H "$AUTH")
check "next page does not repeat the first" false "$(echo "$next" | json "j.gradings.some(g => g.id === '$grading_id')")"

echo "== cards: search, filters, sort, detail"
cards=$(curl -s "$BASE/v1/cards?limit=100" -H "$AUTH")
check "demo user owns at least 40 cards" true "$(echo "$cards" | json 'j.cards.length >= 40')"
check "graded=raw returns only raw cards" true "$(curl -s "$BASE/v1/cards?graded=raw&limit=100" -H "$AUTH" | json 'j.cards.length > 0 && j.cards.every(c => c.grade === null)')"
check "q=pikachu finds only Pikachu" true "$(curl -s "$BASE/v1/cards?q=pikachu" -H "$AUTH" | json 'j.cards.every(c => c.player_name === "Pikachu")')"
check "sort=player&dir=asc is ordered" true "$(curl -s "$BASE/v1/cards?sort=player&dir=asc&limit=100" -H "$AUTH" | json 'j.cards.every((c, i, a) => i === 0 || a[i-1].player_name.localeCompare(c.player_name, "en", {sensitivity: "base"}) <= 0 || a[i-1].player_name <= c.player_name)')"
card_id=$(echo "$cards" | json 'j.cards.find(c => c.grade !== null).user_card_id')
card=$(curl -s "$BASE/v1/cards/$card_id" -H "$AUTH")
check "card detail has every section" "card,grade_runs,gradings,images,model_grade,user_card" "$(echo "$card" | json 'Object.keys(j).sort().join(",")')"

echo "== webhook targets"
created=$(curl -s -X POST "$BASE/v1/webhook-targets" -H "$AUTH" -H 'content-type: application/json' \
  -d '{"outcome":"failure","url":"https://partner.example.com/hooks/failure"}')
target_id=$(echo "$created" | json j.id)
check "create answers camelCase" true "$(echo "$created" | json '"userId" in j && "createdAt" in j')"
check "list shows it in snake_case" true "$(curl -s "$BASE/v1/webhook-targets" -H "$AUTH" | json "j.webhook_targets.some(t => t.id === $target_id && 'created_at' in t)")"
check "a private-address target is refused" 400 "$(status -X POST "$BASE/v1/webhook-targets" -H "$AUTH" -H 'content-type: application/json' -d '{"outcome":"success","url":"https://10.0.0.1/hook"}')"
check "delete answers 204" 204 "$(status -X DELETE "$BASE/v1/webhook-targets/$target_id" -H "$AUTH")"
check "delete again answers 404" 404 "$(status -X DELETE "$BASE/v1/webhook-targets/$target_id" -H "$AUTH")"

echo "== errors and tenancy"
check "no key is 401" 401 "$(status "$BASE/v1/gradings")"
check "unknown key is 401" 401 "$(status "$BASE/v1/gradings" -H 'Authorization: Bearer svcp_unknown')"
check "limit=0 is 400" 400 "$(status "$BASE/v1/gradings?limit=0" -H "$AUTH")"
check "the second user cannot read the first user's grading" 404 "$(status "$BASE/v1/gradings/$grading_id" -H "Authorization: Bearer $DEMO_PARTNER_KEY_2")"
check "the second user cannot read the first user's card" 404 "$(status "$BASE/v1/cards/$card_id" -H "Authorization: Bearer $DEMO_PARTNER_KEY_2")"

echo "== public API (x-api-key)"
if [[ -n "${DEMO_PUBLIC_KEY:-}" ]]; then
  PUB="x-api-key: $DEMO_PUBLIC_KEY"
  check "no key is 401 missing_api_key" missing_api_key "$(curl -s "$BASE/api/public/v1/certificates/1234567897" | json j.error.code)"
  check "a malformed certificate number is 400" 400 "$(status "$BASE/api/public/v1/certificates/1234567890" -H "$PUB")"
  check "an unknown certificate is 404" 404 "$(status "$BASE/api/public/v1/certificates/1234567897" -H "$PUB")"
  check "quota headers on public responses" '"hourly";q=120;w=3600' "$(curl -s -o /dev/null -D - "$BASE/api/public/v1/certificates/1234567897" -H "$PUB" | tr -d '\r' | awk -F': ' 'tolower($1)=="ratelimit-policy"{print $2}')"
fi

echo "== operator CLI"
if [[ -n "${ADMIN_TOKEN:-}" ]]; then
  client_id=$(npm run --silent admin -- create-client --name "e2e client" --url "$BASE" --token "$ADMIN_TOKEN" | json j.id)
  check "admin CLI creates a client" true "$([[ "$client_id" =~ ^[0-9]+$ ]] && echo true || echo false)"
  new_key=$(npm run --silent admin -- issue-client-key --client "$client_id" --url "$BASE" --token "$ADMIN_TOKEN" | json j.key)
  check "the issued key authenticates" 404 "$(status "$BASE/api/public/v1/certificates/1234567897" -H "x-api-key: $new_key")"
  check "the admin API refuses a wrong token" 401 "$(status -X POST "$BASE/admin/v1/users" -H 'Authorization: Bearer wrong-token-0123456789')"
fi

echo "== docs"
check "OpenAPI document is 3.1" 3.1.0 "$(curl -s "$BASE/openapi.json" | json j.openapi)"
check "/docs serves the reference" 200 "$(status "$BASE/docs")"
check "the public API has its own OpenAPI document" 3.1.0 "$(curl -s "$BASE/api/public/v1/openapi.json" | json j.openapi)"

echo
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
