#!/bin/sh
# start-at.sh OVERLAY [LEAD]: prints OVERLAY's manifests with START_AT set
# to LEAD seconds from now (default 120), for `kubectl apply -f -`. Every
# shard starts its warm-up at that one wall-clock time, so LEAD must cover
# scheduling the pods and pulling the image; a shard that starts later fails
# with "--start-at … is in the past" rather than measure other seconds.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 OVERLAY [LEAD_SECONDS]   e.g. $0 deploy/kubernetes/overlays/null 120 | kubectl apply -f -" >&2
	exit 2
fi
overlay=$(cd "$1" && pwd) || exit 2
lead=${2:-120}
case $lead in
'' | *[!0-9]*)
	echo "start-at.sh: LEAD_SECONDS must be a whole number of seconds, not \"$lead\"" >&2
	exit 2
	;;
esac
t=$(($(date +%s) + lead))
# GNU date takes -d @SECONDS, BSD date -r SECONDS.
at=$(date -u -d "@$t" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -r "$t" +%Y-%m-%dT%H:%M:%SZ)
# Kustomize takes no absolute path to a base, and no base that contains the
# kustomization, so the one that sets START_AT is made beside the overlay,
# for the moment of one render.
dir=$(mktemp -d "$(dirname "$overlay")/.start-at.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cat >"$dir/kustomization.yaml" <<YAML
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- ../$(basename "$overlay")
configMapGenerator:
- name: dbmeter-test
  behavior: merge
  literals:
  - START_AT=$at
YAML
kubectl kustomize "$dir"
