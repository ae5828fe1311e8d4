/** Renderer strings of software rasterisers, as WebGL reports them (Chromium's SwiftShader, Mesa's llvmpipe). */
export function isSoftwareRenderer(renderer: string): boolean {
  return /swiftshader|llvmpipe|softpipe|software/i.test(renderer);
}

/**
 * Whether the floor canvas should ask for multisampling. With a GPU it is nearly free; a software
 * rasteriser (a control-room PC without a GPU) spends about five times the frame on it: 5,000
 * moving workers drop from 4 to 20 frames a second without it (bench/RESULTS.md).
 */
export function shouldAntialias(): boolean {
  try {
    const gl = document.createElement('canvas').getContext('webgl');
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return !isSoftwareRenderer(renderer);
  } catch {
    return true;
  }
}
