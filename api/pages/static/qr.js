/* heronlog pages: a small QR code encoder (ISO/IEC 18004, byte mode, error correction L or M, versions 1-40),
 * written for heronlog so that share links work offline with no third-party code.
 *
 * encode(text, {level, mask}) returns {version, level, mask, size, modules} where modules[row][col] is true
 * for a dark module; toSvg(code) draws it with the 4-module quiet zone. The browser tests compare its output
 * module by module with an independent encoder.
 */

import { s } from "./dom.js";

// Error correction codewords per block and number of blocks, by version (index 1-40), for levels L and M.
const ECC_PER_BLOCK = {
  L: [0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  M: [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
};
const BLOCKS = {
  L: [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
  M: [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
};
const LEVEL_BITS = { L: 1, M: 0 };

function alignmentPositions(version) {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = version === 32 ? 26 : Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
  const positions = [6];
  for (let pos = size - 7; positions.length < count; pos -= step) positions.splice(1, 0, pos);
  return positions;
}

/** Modules available for data and error correction, in bits. */
function rawDataModules(version) {
  let bits = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    bits -= (25 * align - 10) * align - 55;
    if (version >= 7) bits -= 36;
  }
  return bits;
}

function dataCodewords(version, level) {
  return Math.floor(rawDataModules(version) / 8) - ECC_PER_BLOCK[level][version] * BLOCKS[level][version];
}

// --- Reed-Solomon over GF(256), polynomial x^8 + x^4 + x^3 + x^2 + 1 --------------------------------------

const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
(() => {
  let value = 1;
  for (let i = 0; i < 255; i += 1) {
    EXP[i] = value;
    LOG[value] = i;
    value <<= 1;
    if (value & 0x100) value ^= 0x11d;
  }
  for (let i = 255; i < 512; i += 1) EXP[i] = EXP[i - 255];
})();

function multiply(a, b) {
  return a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]];
}

function generator(degree) {
  // Coefficients of prod_{i<degree} (x - a^i), highest power first, the leading 1 left out.
  let poly = [1];
  for (let i = 0; i < degree; i += 1) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j += 1) {
      next[j] ^= poly[j];
      next[j + 1] ^= multiply(poly[j], EXP[i]);
    }
    poly = next;
  }
  return poly.slice(1);
}

function remainder(data, degree) {
  const gen = generator(degree);
  const rest = new Array(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ rest.shift();
    rest.push(0);
    for (let i = 0; i < degree; i += 1) rest[i] ^= multiply(gen[i], factor);
  }
  return rest;
}

// --- the codewords -----------------------------------------------------------------------------------------

function codewords(bytes, version, level) {
  const capacity = dataCodewords(version, level);
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i -= 1) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, version <= 9 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, capacity * 8 - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((acc, bit) => (acc << 1) | bit, 0));
  for (let pad = 0xec; data.length < capacity; pad ^= 0xec ^ 0x11) data.push(pad);

  const blocks = BLOCKS[level][version];
  const eccLength = ECC_PER_BLOCK[level][version];
  const total = Math.floor(rawDataModules(version) / 8);
  const shortBlocks = blocks - (total % blocks);
  const shortLength = Math.floor(total / blocks);
  const dataBlocks = [];
  const eccBlocks = [];
  let offset = 0;
  for (let b = 0; b < blocks; b += 1) {
    const length = shortLength - eccLength + (b < shortBlocks ? 0 : 1);
    const chunk = data.slice(offset, offset + length);
    offset += length;
    dataBlocks.push(chunk);
    eccBlocks.push(remainder(chunk, eccLength));
  }
  const out = [];
  for (let i = 0; i <= shortLength - eccLength; i += 1) {
    for (const chunk of dataBlocks) if (i < chunk.length) out.push(chunk[i]);
  }
  for (let i = 0; i < eccLength; i += 1) for (const chunk of eccBlocks) out.push(chunk[i]);
  return out;
}

// --- the matrix --------------------------------------------------------------------------------------------

function bchFormat(level, mask) {
  const data = (LEVEL_BITS[level] << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i += 1) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | rem) ^ 0x5412;
}

function bchVersion(version) {
  let rem = version;
  for (let i = 0; i < 12; i += 1) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  return (version << 12) | rem;
}

const MASKS = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

class Grid {
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  set(row, col, dark) {
    this.dark[row][col] = dark;
    this.fixed[row][col] = true;
  }

  functionPatterns() {
    const n = this.size;
    for (let i = 0; i < n; i += 1) {
      this.set(6, i, i % 2 === 0);
      this.set(i, 6, i % 2 === 0);
    }
    for (const [row, col] of [[3, 3], [3, n - 4], [n - 4, 3]]) {
      for (let dr = -4; dr <= 4; dr += 1) {
        for (let dc = -4; dc <= 4; dc += 1) {
          const r = row + dr;
          const c = col + dc;
          if (r < 0 || r >= n || c < 0 || c >= n) continue;
          const ring = Math.max(Math.abs(dr), Math.abs(dc));
          this.set(r, c, ring !== 2 && ring !== 4);
        }
      }
    }
    const positions = alignmentPositions(this.version);
    const last = positions.length - 1;
    positions.forEach((row, i) => {
      positions.forEach((col, j) => {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
        for (let dr = -2; dr <= 2; dr += 1) {
          for (let dc = -2; dc <= 2; dc += 1) this.set(row + dr, col + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
        }
      });
    });
    this.format(0, "M"); // reserve the format areas; the real bits are drawn after masking
    if (this.version >= 7) {
      const bits = bchVersion(this.version);
      for (let i = 0; i < 18; i += 1) {
        const dark = ((bits >>> i) & 1) === 1;
        const a = n - 11 + (i % 3);
        const b = Math.floor(i / 3);
        this.set(b, a, dark);
        this.set(a, b, dark);
      }
    }
  }

  format(mask, level) {
    const n = this.size;
    const bits = bchFormat(level, mask);
    const bit = (i) => ((bits >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i += 1) this.set(i, 8, bit(i));
    this.set(7, 8, bit(6));
    this.set(8, 8, bit(7));
    this.set(8, 7, bit(8));
    for (let i = 9; i < 15; i += 1) this.set(8, 14 - i, bit(i));
    for (let i = 0; i < 8; i += 1) this.set(8, n - 1 - i, bit(i));
    for (let i = 8; i < 15; i += 1) this.set(n - 15 + i, 8, bit(i));
    this.set(n - 8, 8, true);
  }

  place(words) {
    const n = this.size;
    let index = 0;
    const total = words.length * 8;
    for (let right = n - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let step = 0; step < n; step += 1) {
        for (let k = 0; k < 2; k += 1) {
          const col = right - k;
          const upward = ((right + 1) & 2) === 0;
          const row = upward ? n - 1 - step : step;
          if (this.fixed[row][col]) continue;
          if (index < total) this.dark[row][col] = ((words[index >>> 3] >>> (7 - (index & 7))) & 1) === 1;
          index += 1;
        }
      }
    }
  }

  applyMask(mask) {
    const test = MASKS[mask];
    for (let r = 0; r < this.size; r += 1) {
      for (let c = 0; c < this.size; c += 1) if (!this.fixed[r][c] && test(r, c)) this.dark[r][c] = !this.dark[r][c];
    }
  }

  penalty() {
    const n = this.size;
    const m = this.dark;
    let score = 0;
    const line = (get) => {
      let run = 1;
      for (let i = 1; i <= n; i += 1) {
        if (i < n && get(i) === get(i - 1)) run += 1;
        else {
          if (run >= 5) score += run - 2;
          run = 1;
        }
      }
      for (let i = 0; i + 11 <= n; i += 1) {
        const w = Array.from({ length: 11 }, (_, k) => get(i + k));
        const core = w[0] && !w[1] && w[2] && w[3] && w[4] && !w[5] && w[6];
        const coreRight = w[4] && !w[5] && w[6] && w[7] && w[8] && !w[9] && w[10];
        if (core && !w[7] && !w[8] && !w[9] && !w[10]) score += 40;
        if (coreRight && !w[0] && !w[1] && !w[2] && !w[3]) score += 40;
      }
    };
    for (let r = 0; r < n; r += 1) line((i) => m[r][i]);
    for (let c = 0; c < n; c += 1) line((i) => m[i][c]);
    let dark = 0;
    for (let r = 0; r < n; r += 1) {
      for (let c = 0; c < n; c += 1) {
        if (m[r][c]) dark += 1;
        if (r + 1 < n && c + 1 < n && m[r][c] === m[r][c + 1] && m[r][c] === m[r + 1][c] && m[r][c] === m[r + 1][c + 1]) score += 3;
      }
    }
    score += Math.floor(Math.abs(dark * 20 - n * n * 10) / (n * n)) * 10;
    return score;
  }
}

/** Encode text (UTF-8, byte mode). Options: level "M" (default) or "L"; mask 0-7 (default: the best). */
export function encode(text, options = {}) {
  const bytes = Array.from(new TextEncoder().encode(text));
  const levels = options.level ? [options.level] : ["M", "L"];
  for (let version = options.version || 1; version <= 40; version += 1) {
    for (const level of levels) {
      const bits = 4 + (version <= 9 ? 8 : 16) + bytes.length * 8;
      if (bits > dataCodewords(version, level) * 8) continue;
      const words = codewords(bytes, version, level);
      const masks = options.mask === undefined ? [0, 1, 2, 3, 4, 5, 6, 7] : [options.mask];
      let best = null;
      for (const mask of masks) {
        const grid = new Grid(version);
        grid.functionPatterns();
        grid.place(words);
        grid.applyMask(mask);
        grid.format(mask, level);
        const score = masks.length > 1 ? grid.penalty() : 0;
        if (!best || score < best.score) best = { score, grid, mask };
      }
      return { version, level, mask: best.mask, size: best.grid.size, modules: best.grid.dark };
    }
  }
  throw new Error("too long for a QR code");
}

/** The code as an SVG image (dark modules in one path), with a quiet zone of 4 modules. */
export function toSvg(code, label) {
  const quiet = 4;
  const total = code.size + quiet * 2;
  let path = "";
  code.modules.forEach((row, r) => {
    row.forEach((dark, c) => {
      if (dark) path += `M${c + quiet} ${r + quiet}h1v1h-1z`;
    });
  });
  return s(
    "svg",
    { viewBox: `0 0 ${total} ${total}`, class: "qr", role: "img", "aria-label": label || "QR code", "shape-rendering": "crispEdges" },
    s("rect", { x: 0, y: 0, width: total, height: total, fill: "#fff" }),
    s("path", { d: path, fill: "#000" }),
  );
}
