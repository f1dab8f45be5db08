import {createHash} from 'node:crypto'

/**
 * A tiny authoring format for Portable Text, so the legal pages read as prose in the source:
 *   ## Heading 2      ### Heading 3      - bullet      1. numbered
 *   blank lines separate paragraphs; **bold**, *italic* and [text](href) inline;
 *   {{phone}}, {{email}} ... a Site setting value (a `siteSettingRef` inline object, decision 054).
 */
import {SITE_SETTING_FIELDS} from '../../schemas/objects/site-setting-ref'


type Span = {_type: 'span'; _key: string; text: string; marks: string[]}
type SettingRef = {_type: 'siteSettingRef'; _key: string; field: string}
type LinkDef = {_type: 'link'; _key: string; href: string}
export type Block = {
  _type: 'block'
  _key: string
  style: 'normal' | 'h2' | 'h3'
  listItem?: 'bullet' | 'number'
  level?: number
  markDefs: LinkDef[]
  children: (Span | SettingRef)[]
}

export function keyFor(...parts: (string | number)[]): string {
  return createHash('sha1').update(parts.join('/')).digest('hex').slice(0, 12)
}

const INLINE = /\*\*(.+?)\*\*|\*(.+?)\*|\[(.+?)\]\((.+?)\)|\{\{(\w+)\}\}/g
const SETTING_FIELDS: readonly string[] = SITE_SETTING_FIELDS.map((field) => field.value)

function inline(text: string, seed: string): {children: Block['children']; markDefs: LinkDef[]} {
  const children: Block['children'] = []
  const markDefs: LinkDef[] = []
  let last = 0
  const push = (value: string, marks: string[]) => {
    if (value) children.push({_type: 'span', _key: keyFor(seed, 's', children.length), text: value, marks})
  }
  for (const match of text.matchAll(INLINE)) {
    push(text.slice(last, match.index), [])
    const [, bold, italic, linkText, href, setting] = match
    if (setting !== undefined) {
      if (!SETTING_FIELDS.includes(setting)) throw new Error(`{{${setting}}} is not a site setting: ${SETTING_FIELDS}`)
      children.push({_type: 'siteSettingRef', _key: keyFor(seed, 's', children.length), field: setting})
    } else if (bold !== undefined) push(bold, ['strong'])
    else if (italic !== undefined) push(italic, ['em'])
    else {
      const def: LinkDef = {_type: 'link', _key: keyFor(seed, 'l', markDefs.length), href}
      markDefs.push(def)
      push(linkText, [def._key])
    }
    last = (match.index ?? 0) + match[0].length
  }
  push(text.slice(last), [])
  if (children.length === 0) push(' ', [])
  return {children, markDefs}
}

export function portableText(source: string, seed: string): Block[] {
  const blocks: Block[] = []
  const paragraphs: string[] = []
  const lines = source.trim().split('\n')
  const flush = () => {
    if (paragraphs.length === 0) return
    add(paragraphs.join(' '), 'normal')
    paragraphs.length = 0
  }
  const add = (text: string, style: Block['style'], listItem?: Block['listItem']) => {
    const key = keyFor(seed, blocks.length)
    const block: Block = {_type: 'block', _key: key, style, ...inline(text, key)}
    if (listItem) Object.assign(block, {listItem, level: 1})
    blocks.push(block)
  }
  for (const raw of lines) {
    const line = raw.trim()
    if (line === '') flush()
    else if (line.startsWith('### ')) (flush(), add(line.slice(4), 'h3'))
    else if (line.startsWith('## ')) (flush(), add(line.slice(3), 'h2'))
    else if (line.startsWith('- ')) (flush(), add(line.slice(2), 'normal', 'bullet'))
    else if (/^\d+\. /.test(line)) (flush(), add(line.replace(/^\d+\. /, ''), 'normal', 'number'))
    else paragraphs.push(line)
  }
  flush()
  return blocks
}
