/**
 * The pictures of the bundled dataset, drawn here as SVG and rendered to PNG by sharp, so the
 * project owns every pixel (no third-party photos). Flat colours keep the PNGs small; a seeded
 * random generator keeps every run byte-for-byte the same.
 */

/** Mulberry32: tiny, seeded, good enough to scatter shapes. */
function seeded(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export type Scene = 'lawn' | 'gravel' | 'dog-run'

const SKY = '#cfe8f7'
const MOUNTAIN = '#b9a58f'

function backdrop(width: number, height: number, horizon: number): string {
  return [
    `<rect width="${width}" height="${height}" fill="${SKY}"/>`,
    `<circle cx="${width * 0.82}" cy="${horizon * 0.35}" r="${horizon * 0.16}" fill="#ffd95a"/>`,
    `<path d="M0 ${horizon} L${width * 0.18} ${horizon * 0.55} L${width * 0.34} ${horizon * 0.8} L${width * 0.52} ${horizon * 0.45} L${width * 0.74} ${horizon * 0.85} L${width} ${horizon * 0.6} L${width} ${horizon} Z" fill="${MOUNTAIN}"/>`,
  ].join('')
}

function fence(width: number, horizon: number): string {
  const posts: string[] = []
  const top = horizon - 90
  for (let x = 10; x < width; x += 48) {
    posts.push(`<rect x="${x}" y="${top}" width="34" height="110" rx="4" fill="#e9d3b0" stroke="#b08a5a" stroke-width="3"/>`)
  }
  return `<rect x="0" y="${top + 30}" width="${width}" height="12" fill="#b08a5a"/>${posts.join('')}`
}

function ground(scene: Scene, clean: boolean, width: number, height: number, horizon: number): string {
  const depth = height - horizon
  if (scene === 'gravel') {
    const base = clean ? '#d9c29c' : '#c7ae88'
    const stones: string[] = []
    const random = seeded(7)
    for (let i = 0; i < 260; i++) {
      const x = random() * width
      const y = horizon + random() * depth
      const r = 3 + random() * 6
      stones.push(`<ellipse cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" rx="${r.toFixed(1)}" ry="${(r * 0.7).toFixed(1)}" fill="${i % 3 ? '#a88d68' : '#efe0c4'}"/>`)
    }
    return `<rect x="0" y="${horizon}" width="${width}" height="${depth}" fill="${base}"/>${stones.join('')}`
  }
  const green = clean ? '#4c9a3f' : '#7f9446'
  const stripes: string[] = []
  if (clean) {
    for (let i = 0; i < 8; i += 2) {
      stripes.push(`<rect x="${(width / 8) * i}" y="${horizon}" width="${width / 8}" height="${depth}" fill="#5aab4b"/>`)
    }
  } else {
    const random = seeded(11)
    for (let i = 0; i < 14; i++) {
      const x = random() * width
      const y = horizon + 40 + random() * (depth - 60)
      stripes.push(`<ellipse cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" rx="${(40 + random() * 60).toFixed(1)}" ry="${(14 + random() * 20).toFixed(1)}" fill="#a59a52"/>`)
    }
  }
  const run = scene === 'dog-run' ? `<rect x="${width * 0.05}" y="${horizon + depth * 0.55}" width="${width * 0.9}" height="${depth * 0.3}" rx="30" fill="${clean ? '#d8c7a3' : '#bda984'}"/>` : ''
  return `<rect x="0" y="${horizon}" width="${width}" height="${depth}" fill="${green}"/>${stripes.join('')}${run}`
}

/** Small brown mounds: what the service removes. Only in the "before" pictures. */
function droppings(width: number, height: number, horizon: number, seed: number): string {
  const random = seeded(seed)
  const piles: string[] = []
  for (let i = 0; i < 26; i++) {
    const x = 40 + random() * (width - 80)
    const y = horizon + 30 + random() * (height - horizon - 50)
    const scale = 0.6 + ((y - horizon) / (height - horizon)) * 0.9
    const w = 16 * scale
    piles.push(
      `<ellipse cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" rx="${w.toFixed(1)}" ry="${(w * 0.55).toFixed(1)}" fill="#6b4a2b"/>` +
        `<ellipse cx="${(x - w * 0.2).toFixed(1)}" cy="${(y - w * 0.35).toFixed(1)}" rx="${(w * 0.6).toFixed(1)}" ry="${(w * 0.35).toFixed(1)}" fill="#7d5834"/>`,
    )
  }
  return piles.join('')
}

function dog(x: number, y: number, size: number): string {
  const s = size / 100
  return `<g transform="translate(${x} ${y}) scale(${s})" fill="#3b2f2a">
<ellipse cx="0" cy="0" rx="60" ry="28"/>
<circle cx="62" cy="-30" r="24"/>
<ellipse cx="82" cy="-24" rx="16" ry="10"/>
<path d="M50 -50 L58 -74 L70 -50 Z"/>
<rect x="-48" y="10" width="12" height="44" rx="5"/><rect x="-24" y="10" width="12" height="44" rx="5"/>
<rect x="22" y="10" width="12" height="44" rx="5"/><rect x="42" y="10" width="12" height="44" rx="5"/>
<path d="M-58 -8 Q-90 -40 -80 -60" stroke="#3b2f2a" stroke-width="9" fill="none" stroke-linecap="round"/>
</g>`
}

/** One yard, before (mounds, tired grass) or after (clean, striped) a visit. */
export function yardScene(scene: Scene, clean: boolean, width: number, height: number, seed: number): string {
  const horizon = Math.round(height * 0.42)
  const body = [
    backdrop(width, height, horizon),
    fence(width, horizon),
    ground(scene, clean, width, height, horizon),
    clean ? '' : droppings(width, height, horizon, seed),
    clean ? dog(width * 0.7, height * 0.72, Math.min(width, height) * 0.22) : '',
  ].join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`
}

/** The home page hero: a clean yard with a happy dog and a scoop and bucket by the fence. */
export function heroScene(width: number, height: number): string {
  const horizon = Math.round(height * 0.42)
  const tools = `<g transform="translate(${width * 0.16} ${height * 0.62})">
<rect x="0" y="0" width="90" height="110" rx="10" fill="#1f6fb2"/><rect x="-6" y="-8" width="102" height="16" rx="6" fill="#16548a"/>
<rect x="120" y="-150" width="12" height="230" rx="6" fill="#8a6a44"/><path d="M96 80 h60 v36 h-60 Z" fill="#4d5a63"/>
</g>`
  const body = [
    backdrop(width, height, horizon),
    fence(width, horizon),
    ground('lawn', true, width, height, horizon),
    tools,
    dog(width * 0.66, height * 0.74, Math.min(width, height) * 0.3),
  ].join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`
}

/** The about page: the crew's service truck in front of the mountains. */
export function truckScene(width: number, height: number): string {
  const horizon = Math.round(height * 0.55)
  const x = width * 0.18
  const y = horizon - height * 0.05
  const truck = `<g transform="translate(${x} ${y})">
<rect x="0" y="-170" width="470" height="190" rx="18" fill="#ffffff" stroke="#1f6fb2" stroke-width="6"/>
<rect x="0" y="-60" width="470" height="34" fill="#1f6fb2"/>
<path d="M470 -120 h120 l70 80 v60 h-190 Z" fill="#1f6fb2"/><path d="M500 -105 h80 l45 55 h-125 Z" fill="#cfe8f7"/>
<circle cx="110" cy="30" r="46" fill="#2b2b2b"/><circle cx="110" cy="30" r="18" fill="#bdbdbd"/>
<circle cx="560" cy="30" r="46" fill="#2b2b2b"/><circle cx="560" cy="30" r="18" fill="#bdbdbd"/>
</g>`
  const body = [
    `<rect width="${width}" height="${height}" fill="${SKY}"/>`,
    `<path d="M0 ${horizon} L${width * 0.25} ${horizon * 0.5} L${width * 0.45} ${horizon * 0.78} L${width * 0.7} ${horizon * 0.4} L${width} ${horizon * 0.75} L${width} ${horizon} Z" fill="${MOUNTAIN}"/>`,
    `<rect x="0" y="${horizon}" width="${width}" height="${height - horizon}" fill="#8a8f94"/>`,
    `<rect x="0" y="${horizon + (height - horizon) / 2 - 6}" width="${width}" height="12" fill="#f2d05a"/>`,
    truck,
  ].join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`
}
