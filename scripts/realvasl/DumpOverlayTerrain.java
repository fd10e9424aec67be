// Local-only check (never run in CI): board overlays applied by VASL 6.7.x's own overlay code, dumped pixel by pixel and
// hex by hex, to compare with asl_vassal_bridge.vasl.overlay (scripts/compare_vasl_overlays.py).
//
// For each line of SPECS (board archive, overlay name, picture member, top-left x, y in board pixels, elevation
// preserved true/false, overlay archive, hex 1, hex 2, tab-separated, as scripts/compare_vasl_overlays.py writes them:
// the placement and picture come from the project's reader, VASL's Overlay needing VASSAL's board grid), the board's LOSData
// is read into VASL 6.7.x's VASL.LOS.Map.Map as BoardArchive.addLOSDatatoVASLMap reads it (grids, stairways), then
// VASL's ASLMap.adjustLOSForOverlays runs twice as addLOSDatatoVASLMap calls it (pixel pass, then hex pass), then the
// board's slopes, rr embankments and partial orchards, and Map.resetHexTerrain twice (addLOSDatatoVASLMap's and
// ASLMap's). It writes OUT/<n>.grid (per pixel, x outer and y inner, one elevation and one terrain-code byte, as
// LOSData) and prints, per hex:
//   spec <n> <board> <overlay>
//   <name> TAB <col> TAB <row> TAB <centre terrain> TAB <getBaseLevelofHex> TAB <hexside terrains 0-5, comma-separated>
// An empty overlay name dumps the board alone. Nothing of VASL or VASSAL is committed: this calls their classes,
// built locally. VASL 6.7.x's ASLMap needs VASSAL's GUI, so the check runs its overlay methods in a local build that
// holds only them, with stand-in VASLBoard(BoardArchive, ssr, width, height).addOverlay(Overlay(name, image, x, y,
// persist)) boards (what those methods read), and 6.7.x's Map and Hex (docs/vasl-readers.md, "Overlays").
//
//   CP=$OVL/classes:$VASL67/classes:$RV/vasl/classes:$RV/Vengine-3.7.26.jar:$(cat $RV/cp.txt):/usr/share/java/jdom2.jar
//   javac -cp "$CP" -d build/dumpovl scripts/realvasl/DumpOverlayTerrain.java
//   java -cp "$CP:build/dumpovl" DumpOverlayTerrain SharedBoardMetadata.xml [newer-types.xml] boardsDir overlaysDir \
//        SPECS OUT > vasl-overlays.tsv
import VASL.LOS.Map.Hex;
import VASL.LOS.Map.Map;
import VASL.LOS.Map.Terrain;
import VASL.build.module.ASLMap;
import VASL.build.module.map.boardArchive.BoardArchive;
import VASL.build.module.map.boardArchive.BoardMetadata;
import VASL.build.module.map.boardArchive.SharedBoardMetadata;
import VASL.build.module.map.boardPicker.Overlay;
import VASL.build.module.map.boardPicker.VASLBoard;

import java.awt.image.BufferedImage;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipFile;

import javax.imageio.ImageIO;

import org.jdom2.Element;
import org.jdom2.input.SAXBuilder;

public class DumpOverlayTerrain {
    static final String GRID_CONFIGURATION = "HalfHexWidthLeftHexFullHeight";

    static final class Shared extends SharedBoardMetadata {
        void addTerrainTypes(File f) throws Exception {
            Element root = new SAXBuilder().build(f).getRootElement();
            parseTerrainTypes(root.getName().equals("terrainTypes") ? root : root.getChild("terrainTypes"));
        }
    }

    static String name(Terrain t) {
        return t == null ? "null" : t.getName();
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        int i = 0;
        Shared shared = new Shared();
        try (InputStream in = new FileInputStream(args[i++])) {
            shared.parseSharedBoardMetadataFile(in);
        }
        if (args[i].endsWith(".xml")) {
            shared.addTerrainTypes(new File(args[i++]));
        }
        File boards = new File(args[i++]);
        File overlays = new File(args[i++]);
        List<String> specs = Files.readAllLines(new File(args[i++]).toPath(), StandardCharsets.UTF_8);
        File outDir = new File(args[i]);
        outDir.mkdirs();
        Field f = ASLMap.class.getDeclaredField("sharedBoardMetadata");
        f.setAccessible(true);
        f.set(null, shared);
        int n = 0;
        for (String line : specs) {
            if (line.isBlank()) {
                continue;
            }
            String[] s = line.split("\t", -1);
            try {
                dump(out, shared, boards, overlays, s, new File(outDir, n + ".grid"));
            } catch (Throwable e) {
                out.println("spec\t" + n + "\t" + s[0] + "\t" + s[1] + "\tERROR\t" + e);
            }
            n++;
        }
        out.flush();
    }

    static void dump(PrintStream out, Shared shared, File boards, File overlays, String[] spec, File grid) throws Exception {
        File archive = new File(boards, spec[0]);
        BoardArchive arc = new BoardArchive(spec[0], boards.getPath(), shared);
        try (ZipFile zip = new ZipFile(archive)) {
            BoardMetadata md = new BoardMetadata(shared);
            try (InputStream in = zip.getInputStream(zip.getEntry("BoardMetadata.xml"))) {
                md.parseBoardMetadataFile(in);
            }
            int missing = BoardArchive.missingValue();
            double hexWidth = md.getHexWidth() == missing ? BoardArchive.GEO_HEX_WIDTH : md.getHexWidth();
            double hexHeight = md.getHexHeight() == missing ? BoardArchive.GEO_HEX_HEIGHT : md.getHexHeight();
            try (ObjectInputStream in = new ObjectInputStream(new BufferedInputStream(
                    new GZIPInputStream(zip.getInputStream(zip.getEntry("LOSData")))))) {
                int width = in.readInt(), height = in.readInt(), gw = in.readInt(), gh = in.readInt();
                Map map = new Map(hexWidth, hexHeight, width, (int) Math.round(gh / hexHeight), 0.0, hexHeight / 2.0, gw, gh,
                        shared.getTerrainTypes(), GRID_CONFIGURATION, GRID_CONFIGURATION, false);
                for (int x = 0; x < gw; x++) {
                    for (int y = 0; y < gh; y++) {
                        map.setGridElevation(in.readByte(), x, y);
                        map.setGridTerrainCode(in.readByte() & 0xff, x, y);
                    }
                }
                VASLBoard board = new VASLBoard(arc, "", gw, gh);
                if (!spec[1].isEmpty()) {
                    File ovr = new File(overlays, spec[6]);
                    BufferedImage image;
                    try (ZipFile oz = new ZipFile(ovr); InputStream gif = oz.getInputStream(oz.getEntry(spec[2]))) {
                        image = ImageIO.read(gif);
                    }
                    board.addOverlay(new Overlay(spec[1], image, Integer.parseInt(spec[3]), Integer.parseInt(spec[4]),
                            Boolean.parseBoolean(spec[5])));
                }
                ASLMap aslmap = new ASLMap();
                map = aslmap.adjustLOSForOverlays(board, map, false, false);
                Hex[][] hexes = map.getHexGrid();
                for (int c = 0; c < width; c++) {
                    for (int r = 0; r < height + (c % 2); r++) {
                        byte stairway = in.readByte();
                        if (c < hexes.length && r < hexes[c].length) {
                            hexes[c][r].setStairway(stairway == 1);
                        }
                    }
                }
                map = aslmap.adjustLOSForOverlays(board, map, true, false);
                map.setRBrrembankments(md.getRBrrembankments());
                map.setPartialOrchards(md.getPartialOrchards());
                map.setSlopes(md.getSlopes());
                for (Hex[] column : hexes) {
                    for (Hex h : column) {
                        h.resetHexsideLocationNames();
                    }
                }
                map.resetHexTerrain();
                map.resetHexTerrain();
                try (OutputStream g = new BufferedOutputStream(new FileOutputStream(grid))) {
                    for (int x = 0; x < gw; x++) {
                        for (int y = 0; y < gh; y++) {
                            g.write(map.getGridElevation(x, y));
                            g.write(map.getGridTerrain(x, y).getType());
                        }
                    }
                }
                out.println("spec\t" + grid.getName().replace(".grid", "") + "\t" + spec[0] + "\t" + spec[1]);
                for (int c = 0; c < hexes.length; c++) {
                    for (int r = 0; r < hexes[c].length; r++) {
                        Hex h = hexes[c][r];
                        List<String> sides = new ArrayList<>();
                        for (int k = 0; k < 6; k++) {
                            sides.add(name(h.getHexsideTerrain(k)));
                        }
                        out.println(h.getName() + "\t" + c + "\t" + r + "\t" + name(h.getCenterLocation().getTerrain()) + "\t"
                                + h.getBaseLevelofHex() + "\t" + String.join(",", sides));
                    }
                }
            }
        }
    }
}
