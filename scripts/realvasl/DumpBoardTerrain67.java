// Local-only check (never run in CI): print VASL 6.7.x's own LOS model of board archives, hex by hex, in the layout
// of DumpBoardTerrain.java (the 2020 model) so scripts/compare_vasl_terrain.py reads both:
//   board <file> <width>x<height> <grid configuration> | board <file> NONE <reason>
//   <name> TAB <column> TAB <row> TAB <centre terrain> TAB <getBaseLevelofHex> TAB <depression terrain or -> TAB <up/down>
//     TAB <stairway 0/1> TAB <hexside Locations>
// <up/down>: the centre Location itself as =terrain@level when its getLevelInHex is not 0, then the Locations above (+)
// and below (-) it as terrain@getLevelInHex (upper building levels, rooftops, cellars, a single-hex bridge's or stream's
// extra Location). <hexside Locations>: the six hexside Locations' terrain (side 0 up, clockwise), separated by |, each
// followed by /<depression terrain> when it has one.
//
// How the board is read: as VASL 6.7.x's BoardArchive.addLOSDatatoVASLMap reads one uncropped, unreversed board onto a
// map-wide VASL.LOS.Map.Map (its 12-argument constructor builds the hex grid; A1 at (0, hexHeight / 2), configuration
// "HalfHexWidthLeftHexFullHeight"): every LOSData pixel, the stairway bytes column by column, each hex renamed with
// Map.getGEOHexName(col, row, isbboard, isdwboard), the board's rr embankments, partial orchards and slopes, the hexside
// Location names reset, then Map.resetHexTerrain() -- twice by default (addLOSDatatoVASLMap ends with one, ASLMap calls it
// again after all boards are in; --passes 1 for one).
//
// VASL 6.7.x's classes are not in the project: assemble and compile them locally (docs/vasl-readers.md, "Checking
// against VASL's own model"; scripts/realvasl/build-vasl67.sh). Build and run from a scratch folder:
//   CP=<VASL 6.7.x classes>:<VASL 2020 classes>:Vengine-3.7.26.jar:$(cat cp.txt):/usr/share/java/jdom2.jar
//   javac -cp "$CP" -d build/dumper67 scripts/realvasl/DumpBoardTerrain67.java
//   java -cp "$CP:build/dumper67" DumpBoardTerrain67 [--passes N] SharedBoardMetadata.xml [--keep-duplicate-codes] \
//        [newer-types.xml] BOARDS_DIR bd01 bd22 ... > vasl67.tsv
import VASL.LOS.Map.Hex;
import VASL.LOS.Map.Location;
import VASL.LOS.Map.Map;
import VASL.LOS.Map.Terrain;
import VASL.build.module.map.boardArchive.BoardArchive;
import VASL.build.module.map.boardArchive.BoardMetadata;
import VASL.build.module.map.boardArchive.SharedBoardMetadata;

import java.io.BufferedInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.jdom2.Element;
import org.jdom2.input.SAXBuilder;

public class DumpBoardTerrain67 {
    static final String GRID_CONFIGURATION = "HalfHexWidthLeftHexFullHeight";
    static int passes = 2;

    /** SharedBoardMetadata that also reads a bare {@code <terrainTypes>} file and keeps codes sharing a name. */
    static final class Shared extends SharedBoardMetadata {
        void addTerrainTypes(File f) throws Exception {
            Element root = new SAXBuilder().build(f).getRootElement();
            parseTerrainTypes(root.getName().equals("terrainTypes") ? root : root.getChild("terrainTypes"));
        }

        /** As DumpBoardTerrain --keep-duplicate-codes: a code shadowed by a later one of the same name is kept as "name#code". */
        void keepDuplicateCodes(File f) throws Exception {
            Element types = new SAXBuilder().build(f).getRootElement().getChild("terrainTypes");
            Element extra = new Element("terrainTypes");
            for (Element e : types.getChildren("terrainType")) {
                Terrain t = getTerrainTypes().get(e.getAttributeValue("name"));
                int code = Integer.parseInt(e.getAttributeValue("typeCode"));
                if (t != null && t.getType() != code) {
                    Element copy = e.clone();
                    copy.setAttribute("name", e.getAttributeValue("name") + "#" + code);
                    extra.addContent(copy);
                }
            }
            parseTerrainTypes(extra);
        }
    }

    static String name(Terrain t) {
        if (t == null) {
            return "null";
        }
        String n = t.getName();
        int hash = n.indexOf('#');
        return hash < 0 ? n : n.substring(0, hash);
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        int i = 0;
        if (args[i].equals("--passes")) {
            passes = Integer.parseInt(args[i + 1]);
            i += 2;
        }
        Shared shared = new Shared();
        File sharedFile = new File(args[i++]);
        try (InputStream in = new FileInputStream(sharedFile)) {
            shared.parseSharedBoardMetadataFile(in);
        }
        if (args[i].equals("--keep-duplicate-codes")) {
            shared.keepDuplicateCodes(sharedFile);
            i++;
        }
        if (args[i].endsWith(".xml")) {
            shared.addTerrainTypes(new File(args[i++]));
        }
        String dir = args[i++];
        for (; i < args.length; i++) {
            try {
                dump(out, shared, new File(dir, args[i]));
            } catch (Throwable e) {
                out.println("board\t" + args[i] + "\tNONE\t" + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        out.flush();
    }

    static void dump(PrintStream out, Shared shared, File archive) throws Exception {
        try (ZipFile zip = new ZipFile(archive)) {
            ZipEntry meta = zip.getEntry("BoardMetadata.xml");
            ZipEntry los = zip.getEntry("LOSData");
            if (meta == null || los == null) {
                out.println("board\t" + archive.getName() + "\tNONE\tno " + (meta == null ? "BoardMetadata.xml" : "LOSData")
                        + " (legacy board)");
                return;
            }
            BoardMetadata md = new BoardMetadata(shared);
            try (InputStream in = zip.getInputStream(meta)) {
                md.parseBoardMetadataFile(in);
            }
            int missing = BoardArchive.missingValue();
            double hexWidth = md.getHexWidth() == missing ? BoardArchive.GEO_HEX_WIDTH : md.getHexWidth();
            double hexHeight = md.getHexHeight() == missing ? BoardArchive.GEO_HEX_HEIGHT : md.getHexHeight();
            double a1x = md.getA1CenterX() == missing ? BoardArchive.GEO_A1_Center.x : md.getA1CenterX();
            double a1y = md.getA1CenterY() == missing ? BoardArchive.GEO_A1_Center.y : md.getA1CenterY();
            boolean isbboard = a1x == -901;
            boolean isdwboard = a1y == -612.75;
            try (ObjectInputStream in = new ObjectInputStream(new BufferedInputStream(new GZIPInputStream(zip.getInputStream(los))))) {
                int width = in.readInt(), height = in.readInt(), gridWidth = in.readInt(), gridHeight = in.readInt();
                int heightInHexes = (int) Math.round(gridHeight / hexHeight);
                Map map = new Map(hexWidth, hexHeight, width, heightInHexes, 0.0, hexHeight / 2.0, gridWidth, gridHeight,
                        shared.getTerrainTypes(), GRID_CONFIGURATION, GRID_CONFIGURATION, false);
                for (int x = 0; x < gridWidth; x++) {
                    for (int y = 0; y < gridHeight; y++) {
                        map.setGridElevation(in.readByte(), x, y);
                        map.setGridTerrainCode(in.readByte() & 0xff, x, y);
                    }
                }
                Hex[][] grid = map.getHexGrid();
                for (int c = 0; c < width; c++) {
                    for (int r = 0; r < height + (c % 2); r++) {
                        byte stairway = in.readByte();
                        if (c < grid.length && r < grid[c].length) {
                            grid[c][r].setStairway(stairway == 1);
                            grid[c][r].resetHexAndLocationNames(map.getGEOHexName(c, r, isbboard, isdwboard));
                        }
                    }
                }
                map.setRBrrembankments(md.getRBrrembankments());
                map.setPartialOrchards(md.getPartialOrchards());
                map.setSlopes(md.getSlopes());
                for (Hex[] column : grid) {
                    for (Hex h : column) {
                        h.resetHexsideLocationNames();
                    }
                }
                for (int pass = 0; pass < passes; pass++) {
                    map.resetHexTerrain();
                }
                out.println("board\t" + archive.getName() + "\t" + map.getWidth() + "x" + map.getHeight() + "\t"
                        + map.getMapConfiguration() + "\tpasses=" + passes);
                for (int c = 0; c < grid.length; c++) {
                    for (int r = 0; r < grid[c].length; r++) {
                        Hex h = grid[c][r];
                        Location l = h.getCenterLocation();
                        List<String> extra = new ArrayList<>();
                        if (l.getLevelInHex() != 0) {
                            extra.add("=" + name(l.getTerrain()) + "@" + l.getLevelInHex());
                        }
                        for (Location u = l.getUpLocation(); u != null; u = u.getUpLocation()) {
                            extra.add("+" + name(u.getTerrain()) + "@" + u.getLevelInHex());
                        }
                        for (Location d = l.getDownLocation(); d != null; d = d.getDownLocation()) {
                            extra.add("-" + name(d.getTerrain()) + "@" + d.getLevelInHex());
                        }
                        String dep = l.getDepressionTerrain() == null ? "-" : name(l.getDepressionTerrain());
                        List<String> sides = new ArrayList<>();
                        for (int s = 0; s < 6; s++) {
                            Location hl = h.getHexsideLocation(s);
                            sides.add(name(hl.getTerrain()) + (hl.getDepressionTerrain() == null ? "" : "/" + name(hl.getDepressionTerrain())));
                        }
                        out.println(h.getName() + "\t" + c + "\t" + r + "\t" + name(l.getTerrain()) + "\t" + h.getBaseLevelofHex()
                                + "\t" + dep + "\t" + String.join(",", extra) + "\t" + (h.hasStairway() ? 1 : 0)
                                + "\t" + String.join("|", sides));
                    }
                }
            }
        }
    }
}
