#!/usr/bin/env bash
# Assembles a stand-in for the official node:<ver>-bookworm-slim image, which
# cannot be pulled here: debootstrap minbase + the Node binary the npm package
# node@<ver> installs (node-linux-<arch>) + npm, laid out like the official
# image (/usr/local, user "node" uid 1000). Cached in buildah storage by name.
# usage: stand-in-base.sh <image-name> <node-version>
set -euo pipefail
IMAGE=$1 NODE_VERSION=$2
B=(buildah --storage-driver vfs)

# Bump when the recipe changes, so cached stand-ins are rebuilt.
RECIPE=3
if LABEL=$("${B[@]}" inspect --type image --format '{{index .OCIv1.Config.Labels "outpost.stand-in"}}' "$IMAGE" 2>/dev/null); then
  case $LABEL in
    "$RECIPE") echo "stand-in base: cached $IMAGE"; exit 0 ;;
    "" | "<no value>") echo "stand-in base: using $IMAGE already in storage (not a stand-in)"; exit 0 ;;
  esac
fi
command -v debootstrap >/dev/null || { echo "stand-in base: debootstrap is not installed" >&2; exit 3; }

case "$(uname -m)" in
  x86_64) ARCH=x64 ;; aarch64) ARCH=arm64 ;;
  *) echo "stand-in base: unsupported arch $(uname -m)" >&2; exit 1 ;;
esac
MIRROR=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
MIRROR=${MIRROR:-http://deb.debian.org/debian}

WORK=$(mktemp -d /var/tmp/outpost-base.XXXXXX)
CTR=
cleanup() {
  [[ -n $CTR ]] && "${B[@]}" rm "$CTR" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "stand-in base: debootstrap bookworm from $MIRROR (slow)"
ROOT=$WORK/rootfs
debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
  { tail -20 "$WORK/debootstrap.log" >&2; exit 1; }

echo "stand-in base: node $NODE_VERSION and npm from the npm registry"
(cd "$WORK" && npm pack --silent "node-linux-$ARCH@$NODE_VERSION" "npm@11" >/dev/null)
mkdir -p "$WORK/node" "$ROOT/usr/local/lib/node_modules/npm"
tar -xzf "$WORK"/node-linux-*.tgz -C "$WORK/node"
install -m 0755 "$WORK/node/package/bin/node" "$ROOT/usr/local/bin/node"
# Node's headers, as in the official image, for native addons (better-sqlite3).
mkdir -p "$ROOT/usr/local/include"
cp -r "$WORK/node/package/include/node" "$ROOT/usr/local/include/node"
tar -xzf "$WORK"/npm-*.tgz -C "$ROOT/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$ROOT/usr/local/bin/npx"

# Like the official image: a "node" user, and no apt lists or docs.
chroot "$ROOT" sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'
chroot "$ROOT" apt-get clean
rm -rf "$ROOT"/var/lib/apt/lists/* "$ROOT"/usr/share/doc/* "$ROOT"/usr/share/man/* "$ROOT"/var/cache/debconf/*-old

CTR=$("${B[@]}" from scratch)
MNT=$("${B[@]}" mount "$CTR")
tar -C "$ROOT" -cf - . | tar -C "$MNT" -xpf -
"${B[@]}" umount "$CTR" >/dev/null
# NODE_EXTRA_CA_CERTS is stand-in only: builds here reach the npm registry through
# a TLS-intercepting egress whose CA is in the host bundle that image-smoke
# mounts, and buildah 1.28's `build --env` does not reach RUN steps.
"${B[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env NODE_VERSION="$NODE_VERSION" --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
  --cmd node --label outpost.stand-in="$RECIPE" "$CTR"
"${B[@]}" rmi "$IMAGE" >/dev/null 2>&1 || true
"${B[@]}" commit --quiet "$CTR" "$IMAGE" >/dev/null
echo "stand-in base: built $IMAGE"
