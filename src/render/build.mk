# src/render/build.mk - the SVG's JavaScript and CSS are real files (flame.js,
# flame.css) compiled in byte for byte, and so are the heatmap page's (heatmap.js,
# heatmap.css, heatmap.html): each becomes a list of bytes ("0x22,0x75,...") that
# flame_script.c or heatmap_script.c includes.  od and sed, no generator of ours; the
# object depends on the lists, and each list on its file.
RENDER_ASSET_INCS := $(BUILD)/include/render/flame.js.inc $(BUILD)/include/render/flame.css.inc
HEATMAP_ASSET_INCS := $(BUILD)/include/render/heatmap.js.inc \
	$(BUILD)/include/render/heatmap.css.inc $(BUILD)/include/render/heatmap.html.inc

$(BUILD)/include/render/%.inc: src/render/% src/render/build.mk
	@mkdir -p $(dir $@)
	od -An -v -tx1 $< | sed 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g' > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/src/render/flame_script.o: $(RENDER_ASSET_INCS)
$(BUILD)/obj/src/render/heatmap_script.o: $(HEATMAP_ASSET_INCS)
