/**
 * jsdom finds a label's control by walking the document up to the element its `for` names, and an input's labels by
 * asking every node of the document for its control: so each accessible name or label query pays labels × nodes per
 * form control, most of a form screen's test time. These getters give the same answers from jsdom's id index and its
 * list of label elements; anything they do not cover (a detached or shadow tree, a form-associated custom element)
 * still goes to jsdom's own getter.
 */
const LABELABLE = new Set(['button', 'meter', 'output', 'progress', 'select', 'textarea']);
const HTML = 'http://www.w3.org/1999/xhtml';

const isLabelable = (element: Element) =>
  element.namespaceURI === HTML &&
  (LABELABLE.has(element.localName) || (element.localName === 'input' && (element as HTMLInputElement).type !== 'hidden'));

/** The document a connected element belongs to, or null where jsdom's walk must answer. */
const documentOf = (node: Node) => {
  const root = node.getRootNode();
  return root instanceof Document ? root : null;
};

function replaceGetter<T extends object, R>(proto: T, name: string, fast: (element: T, original: () => R) => R) {
  const descriptor = Object.getOwnPropertyDescriptor(proto, name);
  const marker = Symbol.for(`indexed ${name}`);
  // Each file's setup runs this (with fresh modules), and files may share a window.
  if (!descriptor?.get || Object.hasOwn(proto, marker)) return;
  Object.defineProperty(proto, name, {
    configurable: true,
    enumerable: true,
    get(this: T) {
      return fast(this, () => descriptor.get?.call(this) as R);
    },
  });
  Object.defineProperty(proto, marker, { value: true });
}

export function indexLabels() {
  replaceGetter(HTMLLabelElement.prototype, 'control', (label: HTMLLabelElement, original: () => HTMLElement | null) => {
    const id = label.getAttribute('for');
    const document = documentOf(label);
    if (id === null || !document) return original();
    if (id === '') return null;
    // getElementById answers the first element in tree order with that id, as the walk does.
    const target = document.getElementById(id);
    if (!target) return null;
    return isLabelable(target) ? target : target.localName.includes('-') ? original() : null;
  });

  for (const proto of [
    HTMLInputElement.prototype,
    HTMLButtonElement.prototype,
    HTMLSelectElement.prototype,
    HTMLTextAreaElement.prototype,
    HTMLMeterElement.prototype,
    HTMLOutputElement.prototype,
    HTMLProgressElement.prototype,
  ])
    replaceGetter(proto, 'labels', (element: HTMLElement, original: () => NodeListOf<HTMLLabelElement> | null) => {
      const document = documentOf(element);
      if (!document || !isLabelable(element)) return original();
      // The document's labels in tree order, as jsdom's walk lists them; an array, which is how the queries read it.
      return Array.from(document.getElementsByTagName('label')).filter(
        (label) => label.control === element,
      ) as unknown as NodeListOf<HTMLLabelElement>;
    });
}
