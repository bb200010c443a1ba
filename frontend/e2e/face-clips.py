#!/usr/bin/python3
"""Fake-camera clips for the face-ID end-to-end tests and the kiosk benchmark (issue 16).

    /usr/bin/python3 e2e/face-clips.py <out-dir>

Writes, from the public-domain portraits Debian ships (python3-skimage's astronaut = person
A, matplotlib's sample Grace Hopper = person B), framed like a webcam (640x480, the face
centred, about 35-40 % of the width), uncompressed YUV4MPEG2 clips Chromium plays as its
fake camera (--use-file-for-fake-video-capture; it loops the file):

    a-still.y4m   A, one frame held for 4 s: a printed photo (no blink)
    a-blink.y4m   A blinking: eyes open 1.5 s, closing, closed 0.4 s, opening; twice
    b-blink.y4m   B blinking the same way
    b-still.y4m   B held still
    a.png, a-closed.png, b.png, b-closed.png   single frames (for a scratch look or a bench)

The blink paints the eyelids shut: inside each eye's outline (the face mesh's eye contour,
measured once on these exact frames with @vladmandic/human 3.3.6, see EYES) every column is
filled by blending the skin just above and just below the eye, with a dark lash line, then
the patch's edge is softened. Nothing here is committed as a binary: the tests build the
clips into a cache directory on demand. Needs python3-numpy and python3-pil (and the two
images: python3-skimage, python3-matplotlib).
"""
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

W, H, FPS = 640, 480, 10

ASTRONAUT = '/usr/lib/python3/dist-packages/skimage/data/astronaut.png'
HOPPER = '/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg'

# (source, crop box in source pixels (4:3), to be resized to 640x480)
PEOPLE = {
    'a': (ASTRONAUT, (85, 20, 85 + 280, 20 + 210)),
    'b': (HOPPER, (0, 30, 512, 30 + 384)),
}

# Each eye's outline in the framed 640x480 frame: the face mesh's eye contour (upper lid from
# the outer corner to the inner one, then the lower lid back), as human 3.3.6 found it
# (mesh points 33,246,161,160,159,158,157,173,133,155,154,153,145,144,163,7 and the mirror
# 263,466,388,387,386,385,384,398,362,382,381,380,374,373,390,249).
EYES = {
    'a': [
        [(255, 188), (256, 186), (259, 183), (263, 180), (270, 177), (277, 176), (285, 179), (291, 184),
         (294, 186), (293, 187), (289, 188), (283, 191), (277, 193), (269, 194), (264, 193), (259, 191)],
        [(389, 192), (388, 190), (386, 188), (381, 185), (374, 183), (366, 183), (358, 186), (351, 190),
         (348, 193), (350, 194), (355, 195), (362, 196), (369, 198), (376, 198), (382, 197), (386, 195)],
    ],
    'b': [
        [(253, 202), (255, 201), (258, 199), (262, 197), (269, 195), (277, 195), (284, 198), (289, 202),
         (292, 204), (291, 204), (287, 204), (281, 205), (275, 207), (268, 207), (262, 206), (258, 205)],
        [(400, 198), (398, 196), (396, 194), (392, 192), (385, 190), (377, 191), (370, 194), (365, 199),
         (362, 201), (364, 201), (368, 201), (375, 202), (382, 202), (388, 201), (393, 201), (397, 200)],
    ],
}

# Blink timing in frames at 10 fps: open, half-closed, closed, half-open.
OPEN, CLOSED = 15, 4
MARGIN = 10  # pixels painted beyond the outline (the lid's skin covers the whole eye)


def framed(who):
    src, box = PEOPLE[who]
    return Image.open(src).convert('RGB').crop(box).resize((W, H), Image.LANCZOS)


def close_eyes(img, who, amount):
    """The frame with both eyes `amount` shut (0 open … 1 closed): the lid comes down from the top."""
    if amount <= 0:
        return img
    px = np.asarray(img).astype(np.float32)
    out = px.copy()
    mask = Image.new('L', (W, H), 0)
    draw = ImageDraw.Draw(mask)
    lashes = []
    for eye in EYES[who]:
        xs = [p[0] for p in eye]
        ys = [p[1] for p in eye]
        x0, x1 = min(xs) - MARGIN, max(xs) + MARGIN
        y0, y1 = min(ys) - MARGIN, max(ys) + MARGIN
        # How far down the lid reaches: all of the eye when closed.
        yl = int(round(y0 + (y1 - y0) * amount))
        above = px[y0 - 4:y0 - 1, x0:x1 + 1].mean(axis=0)   # skin over the eye, per column
        below = px[y1 + 1:y1 + 4, x0:x1 + 1].mean(axis=0)   # skin under it
        for y in range(y0, yl + 1):
            t = (y - y0) / max(1, y1 - y0)
            out[y, x0:x1 + 1] = above * (1 - t) + below * t
        # The painted part, as a soft mask: the eye's outline grown by MARGIN, down to the lid.
        poly = [(x, min(y, yl)) for x, y in eye]
        draw.polygon(poly, fill=255)
        draw.line(poly + poly[:1], fill=255, width=2 * MARGIN)
        if amount >= 1:
            # The lash line: a dark curve along the lower lid, a little above it.
            lashes.append([(x, y - 4) for x, y in eye[8:] + eye[:1]])
    soft = np.asarray(mask.filter(ImageFilter.GaussianBlur(1.5))).astype(np.float32)[..., None] / 255
    blended = Image.fromarray((px * (1 - soft) + out * soft).clip(0, 255).astype(np.uint8))
    if lashes:
        d = ImageDraw.Draw(blended)
        for line in lashes:
            d.line(line, fill=(70, 50, 45), width=4)
        blended = blended.filter(ImageFilter.SMOOTH)
    return blended


def yuv420(img):
    """RGB → planar Y, Cb, Cr (BT.601, studio range), chroma averaged over 2x2 blocks."""
    rgb = np.asarray(img).astype(np.float32)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 16 + 0.257 * r + 0.504 * g + 0.098 * b
    cb = 128 - 0.148 * r - 0.291 * g + 0.439 * b
    cr = 128 + 0.439 * r - 0.368 * g - 0.071 * b

    def sub(c):
        return c.reshape(H // 2, 2, W // 2, 2).mean(axis=(1, 3))

    planes = [y, sub(cb), sub(cr)]
    return b''.join(np.clip(np.round(p), 0, 255).astype(np.uint8).tobytes() for p in planes)


def write_clip(path, frames):
    tmp = path + '.part'
    with open(tmp, 'wb') as f:
        f.write(f'YUV4MPEG2 W{W} H{H} F{FPS}:1 Ip A1:1 C420jpeg\n'.encode())
        cache = {}
        for fr in frames:
            key = id(fr)
            if key not in cache:
                cache[key] = yuv420(fr)
            f.write(b'FRAME\n')
            f.write(cache[key])
    os.replace(tmp, path)


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: face-clips.py <out-dir>')
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for who in PEOPLE:
        base = framed(who)
        half = close_eyes(base, who, 0.55)
        shut = close_eyes(base, who, 1.0)
        base.save(os.path.join(out, f'{who}.png'))
        shut.save(os.path.join(out, f'{who}-closed.png'))
        cycle = [base] * OPEN + [half] + [shut] * CLOSED + [half]
        write_clip(os.path.join(out, f'{who}-blink.y4m'), cycle * 2)
        write_clip(os.path.join(out, f'{who}-still.y4m'), [base] * (4 * FPS))
    print(out)


if __name__ == '__main__':
    main()
