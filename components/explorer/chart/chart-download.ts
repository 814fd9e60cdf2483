// A drawn chart as files: its SVG standing alone (dark on white, whatever the page's theme),
// a PNG drawn from that SVG at twice its size, and any text. Browser only.
import { english, type Translate } from "@/lib/i18n";

const SVG_NS = "http://www.w3.org/2000/svg";

/** The chart's SVG as a file's text. Plot colours text and axes with currentColor and styles
 *  tips with --plot-background: outside the page they need values of their own. */
export function svgText(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", SVG_NS);
  clone.style.setProperty("color", "#18181b");
  clone.style.setProperty("--plot-background", "white");
  // a tip is where the pointer was: not part of the chart
  for (const tip of clone.querySelectorAll('[aria-label="tip"]')) tip.remove();
  const background = document.createElementNS(SVG_NS, "rect");
  background.setAttribute("width", "100%");
  background.setAttribute("height", "100%");
  background.setAttribute("fill", "white");
  clone.prepend(background);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}`;
}

export function svgBlob(svg: SVGSVGElement): Blob {
  return new Blob([svgText(svg)], { type: "image/svg+xml;charset=utf-8" });
}

export async function pngBlob(svg: SVGSVGElement, scale = 2, t: Translate = english): Promise<Blob> {
  const width = Number(svg.getAttribute("width")) || svg.clientWidth;
  const height = Number(svg.getAttribute("height")) || svg.clientHeight;
  const url = URL.createObjectURL(svgBlob(svg));
  try {
    const image = new Image(width, height);
    image.src = url;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const context = canvas.getContext("2d");
    if (!context) throw new Error(t("chart.cannotDraw"));
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(t("chart.cannotPng")))), "image/png"),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
