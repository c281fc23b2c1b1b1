"""The demo's pictures: the panel's raw pixels shown in a drawn tablet, turned the way a person
holds it, so that what the plugin shows upright looks upright; the contact sheet of the steps;
filmstrips of a transition, as a strip and as an animated PNG. Debian's python3-pil."""
from PIL import Image, ImageDraw, ImageFont

# How the picture of a device held this way is turned (PIL's transposes turn counter-clockwise):
# left-up is the device turned 90° clockwise, which puts its left edge at the top.
HELD_TURN = {"normal": None, "left-up": Image.ROTATE_270, "bottom-up": Image.ROTATE_180,
             "right-up": Image.ROTATE_90}

FONTS = "/usr/share/fonts/truetype/dejavu/"  # fonts-dejavu-core
INK = (30, 30, 34)
MUTED = (95, 95, 105)
PAPER = (246, 246, 242)
BEZEL = (38, 38, 44)
PANEL_WIDTH = 300   # the panel's long side in a contact-sheet cell
CELL = (420, 580)   # a contact-sheet cell: the device (a square that fits it turned) and its caption
COLUMNS = 3


def font(size, bold=False):
    try:
        return ImageFont.truetype(FONTS + ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"), size)
    except OSError:  # no DejaVu: the demo still draws, in PIL's small built-in font
        return ImageFont.load_default()


def read_ppm(path):
    """The host's raw frames are binary PPMs (P6, 8 bits)."""
    with open(path, "rb") as f:
        return Image.open(f).convert("RGB")


def as_held(image, held):
    turn = HELD_TURN[held]
    return image if turn is None else image.transpose(turn)


def device(panel, held, width=PANEL_WIDTH):
    """The panel in a tablet's body, as a person holding it `held` sees it. A camera dot marks the
    body's natural top edge, so where it ends up shows how the device is held."""
    height = round(panel.height * width / panel.width)
    bezel = 18
    body = Image.new("RGBA", (width + 2 * bezel, height + 2 * bezel), (0, 0, 0, 0))
    draw = ImageDraw.Draw(body)
    draw.rounded_rectangle([0, 0, body.width - 1, body.height - 1], radius=24, fill=BEZEL + (255,),
                           outline=(100, 100, 110, 255), width=2)
    body.paste(panel.resize((width, height), Image.LANCZOS), (bezel, bezel))
    cx, cy = body.width // 2, bezel // 2
    draw.ellipse([cx - 4, cy - 4, cx + 4, cy + 4], fill=(85, 85, 100, 255))
    return as_held(body, held)


def wrap(draw, text, face, width):
    """`text` broken into lines no wider than `width` pixels."""
    lines, line = [], ""
    for word in text.split(" "):
        candidate = word if not line else line + " " + word
        if line and draw.textlength(candidate, font=face) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + [line]


def contact_sheet(title, steps, path):
    """steps: [(panel image, held, heading, [caption lines])]. One cell per step, in rows."""
    rows = (len(steps) + COLUMNS - 1) // COLUMNS
    header = 70
    sheet = Image.new("RGB", (COLUMNS * CELL[0], header + rows * CELL[1]), PAPER)
    draw = ImageDraw.Draw(sheet)
    draw.text((24, 20), title, font=font(26, bold=True), fill=INK)
    heading_font, caption_font = font(17, bold=True), font(14)
    for n, (panel, held, heading, captions) in enumerate(steps):
        x0, y0 = (n % COLUMNS) * CELL[0], header + (n // COLUMNS) * CELL[1]
        body = device(panel, held)
        box = CELL[0] - 40  # the square the device is centred in, whichever way it is held
        sheet.paste(body, (x0 + 20 + (box - body.width) // 2, y0 + 10 + (box - body.height) // 2), body)
        y = y0 + box + 24
        for line in wrap(draw, heading, heading_font, CELL[0] - 40):
            draw.text((x0 + 20, y), line, font=heading_font, fill=INK)
            y += 22
        for caption in captions:
            for line in wrap(draw, caption, caption_font, CELL[0] - 40):
                draw.text((x0 + 20, y), line, font=caption_font, fill=MUTED)
                y += 18
    sheet.save(path)


def filmstrip(frames, held, strip_path, animation_path, thumb=200):
    """frames: [(label, milliseconds shown, raw panel image)], in order; each is turned the way the
    device is held at the end of the turn. Writes a strip with the labels under the frames and an
    animated PNG that shows each frame for as long as the panel did."""
    turned = [as_held(image, held) for _, _, image in frames]
    scale = thumb / max(turned[0].size)
    size = (round(turned[0].width * scale), round(turned[0].height * scale))
    gap, label_height = 6, 24
    strip = Image.new("RGB", (len(frames) * (size[0] + gap) - gap, size[1] + label_height), PAPER)
    draw = ImageDraw.Draw(strip)
    label_font = font(12)
    small = []
    for n, ((label, _, _), image) in enumerate(zip(frames, turned)):
        picture = image.resize(size, Image.LANCZOS)
        small.append(picture)
        x = n * (size[0] + gap)
        strip.paste(picture, (x, 0))
        draw.text((x + 2, size[1] + 5), label, font=label_font, fill=MUTED)
    strip.save(strip_path)
    big_scale = 2 * thumb / max(turned[0].size)
    big = [image.resize((round(image.width * big_scale), round(image.height * big_scale)), Image.LANCZOS)
           for image in turned]
    durations = [max(20, round(ms)) for _, ms, _ in frames]
    big[0].save(animation_path, save_all=True, append_images=big[1:], duration=durations, loop=0, format="PNG")
