// Local-only check (never run in CI): print VASL's own LOS model of board archives, hex by hex.
//
// Loads each archive through VASL's classes exactly as VASL.build.module.ASLMap does for one
// uncropped, unreversed board (BoardArchive.getLOSData with crop type "Normal", plus "Offset"
// when A1CenterX is not 0, -999 or -901; gridadj 0) and prints, per hex of the resulting
// VASL.LOS.Map.Map:
//   board <file> <width>x<height> | board <file> NONE <reason>
//   <name> TAB <column> TAB <row> TAB <centre terrain> TAB <base height> TAB <depression terrain or -> TAB <up/down>
// <up/down> lists the Locations above (+) and below (-) the centre with their levels (upper building
// levels, rooftops, cellars, a single-hex bridge's extra Location).  Compare with
// scripts/compare_vasl_terrain.py.  Nothing of VASL or VASSAL is committed: this calls their classes,
// built locally as ../shared/docs/real-vassal-and-vasl.md describes ($RV below).
//
// Build and run from a scratch folder (VASSAL's logger writes CONF_DIR_IS_UNDEFINED/ into the current one);
// see docs/vasl-readers.md, "Checking against VASL's own model":
//   CP=$RV/Vengine-3.7.26.jar:$(cat $RV/cp.txt):/usr/share/java/jdom2.jar:$RV/vasl/classes
//   javac -cp "$CP" -d /tmp/dumper scripts/realvasl/DumpBoardTerrain.java
//   java -cp "$CP:/tmp/dumper" DumpBoardTerrain SharedBoardMetadata.xml [--keep-duplicate-codes] [newer-types.xml] \
//        bdDir bd01 bd12b … > vasl.tsv
import VASL.LOS.Map.Hex;
import VASL.LOS.Map.Location;
import VASL.LOS.Map.Map;
import VASL.build.module.map.boardArchive.BoardArchive;
import VASL.build.module.map.boardArchive.SharedBoardMetadata;

import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.input.SAXBuilder;

public class DumpBoardTerrain {

    /** SharedBoardMetadata that also reads a bare {@code <terrainTypes>} file (the 6.7 additions). */
    static final class Shared extends SharedBoardMetadata {
        void addTerrainTypes(File f) throws Exception {
            Document doc = new SAXBuilder().build(f);
            Element root = doc.getRootElement();
            parseTerrainTypes(root.getName().equals("terrainTypes") ? root : root.getChild("terrainTypes"));
        }

        /**
         * VASL keys terrain types by name, so of two types sharing a name (2020: "Scrub", codes 100 and 121)
         * the earlier code has no Terrain and any board using it fails to load. With --keep-duplicate-codes
         * the shadowed codes are registered again under "name#code" (printed without the suffix).
         */
        void keepDuplicateCodes(File f) throws Exception {
            Element types = new SAXBuilder().build(f).getRootElement().getChild("terrainTypes");
            Element extra = new Element("terrainTypes");
            for (Element e : types.getChildren("terrainType")) {
                VASL.LOS.Map.Terrain t = getTerrainTypes().get(e.getAttributeValue("name"));
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

    /** Why getLOSData returned null: its steps again, with the exception it swallows. */
    static String why(BoardArchive arc, File f, Shared shared, String crop) {
        try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(f)) {
            java.util.zip.ZipEntry e = z.getEntry("LOSData");
            if (e == null) {
                return "no LOSData in the archive";
            }
            java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.BufferedInputStream(
                    new java.util.zip.GZIPInputStream(z.getInputStream(e))));
            int w = in.readInt(), h = in.readInt(), gw = in.readInt(), gh = in.readInt();
            Map map = arc.isGEO() ? new Map(w, h, shared.getTerrainTypes(), crop, false)
                    : new Map(arc.getHexWidth(), arc.getHexHeight(), w, h, arc.getA1CenterX(), arc.getA1CenterY(),
                              gw, gh, shared.getTerrainTypes(), crop, false);
            for (int x = 0; x < gw; x++) {
                for (int y = 0; y < gh; y++) {
                    map.setGridElevation(in.readByte(), x, y);
                    map.setGridTerrainCode(in.readByte() & 0xff, x, y);
                }
            }
            for (int c = 0; c < map.getWidth(); c++) {
                for (int r = 0; r < map.getHeight() + (c % 2); r++) {
                    map.getHex(c, r).setStairway(in.readByte() == 1);
                }
            }
            map.resetHexTerrain(0);
            return "no exception on a second reading";
        } catch (Throwable t) {
            StackTraceElement[] st = t.getStackTrace();
            return t + (st.length > 0 ? " at " + st[0] : "");
        }
    }

    static String name(VASL.LOS.Map.Terrain t) {
        String n = t.getName();
        int hash = n.indexOf('#');
        return hash < 0 ? n : n.substring(0, hash);
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        Shared shared = new Shared();
        try (InputStream in = new FileInputStream(args[0])) {
            shared.parseSharedBoardMetadataFile(in);
        }
        int i = 1;
        if (args[i].equals("--keep-duplicate-codes")) {
            shared.keepDuplicateCodes(new File(args[0]));
            i++;
        }
        if (args[i].endsWith(".xml")) {
            shared.addTerrainTypes(new File(args[i]));
            i++;
        }
        String dir = args[i++];
        for (; i < args.length; i++) {
            String file = args[i];
            try {
                BoardArchive arc = new BoardArchive(file, dir, shared);
                if (arc.isLegacyBoard()) {
                    out.println("board\t" + file + "\tNONE\tno BoardMetadata.xml (legacy board)");
                    continue;
                }
                double x0 = arc.getA1CenterX();
                String crop = "Normal" + ((x0 != 0 && x0 != -999 && x0 != -901) ? "Offset" : "");
                Map map = arc.getLOSData(shared.getTerrainTypes(), crop, false, 0);
                if (map == null) {
                    out.println("board\t" + file + "\tNONE\tVASL built no LOS map (getLOSData returned null: "
                            + why(arc, new File(dir, file), shared, crop) + ")");
                    continue;
                }
                Hex[][] grid = map.getHexGrid();
                if (grid == null) {
                    out.println("board\t" + file + "\tNONE\tVASL built no hex grid");
                    continue;
                }
                out.println("board\t" + file + "\t" + map.getWidth() + "x" + map.getHeight() + "\t" + crop
                        + "\talt=" + arc.isAltHexGrain());
                for (int c = 0; c < grid.length; c++) {
                    for (int r = 0; r < grid[c].length; r++) {
                        Hex h = grid[c][r];
                        Location l = h.getCenterLocation();
                        List<String> extra = new ArrayList<>();
                        for (Location u = l.getUpLocation(); u != null; u = u.getUpLocation()) {
                            extra.add("+" + name(u.getTerrain()) + "@" + u.getBaseHeight());
                        }
                        for (Location d = l.getDownLocation(); d != null; d = d.getDownLocation()) {
                            extra.add("-" + name(d.getTerrain()) + "@" + d.getBaseHeight());
                        }
                        String dep = l.getDepressionTerrain() == null ? "-" : name(l.getDepressionTerrain());
                        out.println(h.getName() + "\t" + c + "\t" + r + "\t" + name(l.getTerrain()) + "\t"
                                + h.getBaseHeight() + "\t" + dep + "\t" + String.join(",", extra));
                    }
                }
            } catch (Throwable e) {
                out.println("board\t" + file + "\tNONE\t" + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        out.flush();
    }
}
